// Extraction of files found inside other files (a zip's entries, an e-mail's attachments):
// detect the inner file's format, extract it through the registry, and enforce the limits
// that guard against hostile containers — one unpacked-bytes budget shared by a container
// and everything nested in it, and at most `maxArchiveDepth` containers within containers.

import { ExtractionError, type Extraction, type ExtractionOptions } from './extraction.ts';
import { detectFormat } from './detect-format.ts';
import { familyFor } from './format-registry.ts';

/** A container refused for its limits (zip bomb, too deep): always fails the whole extraction. */
export class ContainerLimitError extends ExtractionError {
  constructor(message: string) {
    super('extraction_failed', message);
  }
}

/** Bytes still allowed to be unpacked, shared by a top-level container and its nested ones. */
export interface UnpackBudget {
  remaining: number;
}

const budgets = new WeakMap<ExtractionOptions, UnpackBudget>();

/**
 * Called by a container family on entry. Refuses a container nested deeper than allowed and
 * returns the limits to use inside it: the caller's own when this container is nested (so the
 * budget stays shared), else a private copy with a fresh budget (the caller's limits may be a
 * shared default object).
 */
export function enterContainer(limits: ExtractionOptions, kind: string): ExtractionOptions {
  if (limits.maxArchiveDepth < 0) {
    throw new ContainerLimitError(`the ${kind} is nested in archives or messages deeper than the limit allows`);
  }
  if (budgets.has(limits)) return limits;
  const own: ExtractionOptions = { ...limits };
  budgets.set(own, { remaining: limits.maxUnpackedBytes });
  return own;
}

function budgetOf(limits: ExtractionOptions): UnpackBudget {
  let budget = budgets.get(limits);
  if (budget === undefined) {
    budget = { remaining: limits.maxUnpackedBytes };
    budgets.set(limits, budget);
  }
  return budget;
}

/** Bytes this container (with its parents and siblings) may still unpack. */
export function remainingUnpacked(limits: ExtractionOptions): number {
  return budgetOf(limits).remaining;
}

/** Takes `bytes` from the budget; refuses the container when it would run out. */
export function spendUnpacked(limits: ExtractionOptions, bytes: number): void {
  const budget = budgetOf(limits);
  if (bytes > budget.remaining) throw unpackedTooMuch(limits);
  budget.remaining -= bytes;
}

/** The refusal for a container that unpacks to more than the limit. */
export function unpackedTooMuch(limits: ExtractionOptions): ContainerLimitError {
  return new ContainerLimitError(`the archive unpacks to more than ${limits.maxUnpackedBytes} bytes (the limit)`);
}

/** The limits for something one level further in: one less level, the same shared budget. */
function innerLimits(limits: ExtractionOptions): ExtractionOptions {
  const inner: ExtractionOptions = { ...limits, maxArchiveDepth: limits.maxArchiveDepth - 1 };
  budgets.set(inner, budgetOf(limits));
  return inner;
}

/**
 * Extracts a file found inside a container. Returns null when nobody reads its format or it
 * cannot be read (the container then skips it); container limit refusals are rethrown.
 */
export async function extractNested(
  bytes: Uint8Array,
  fileName: string | null,
  limits: ExtractionOptions,
): Promise<Extraction | null> {
  const format = detectFormat(bytes, fileName, (name) => familyFor(name) !== undefined);
  if (format === null) return null;
  const family = familyFor(format);
  if (family === undefined) return null;
  try {
    const extraction = await family.extract(bytes, format, innerLimits(limits));
    return { ...extraction, format: extraction.format || format };
  } catch (error) {
    if (error instanceof ContainerLimitError) throw error;
    return null;
  }
}
