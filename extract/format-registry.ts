// The registry of format families: which family reads which format name. Families register
// once at start-up (see families/index.ts); GET /v1/formats lists what they claim.

import type { FormatFamily, FormatInfo } from './extraction.ts';

const familiesByFormat = new Map<string, FormatFamily>();
const infoByFormat = new Map<string, FormatInfo>();

/** Registers a family for each of its formats; a format claimed by two families is an error. */
export function registerFamily(family: FormatFamily): void {
  for (const info of family.formats) {
    const name = info.extension.toLowerCase();
    const existing = familiesByFormat.get(name);
    if (existing === family) continue;
    if (existing !== undefined) {
      throw new Error(`format "${name}" is claimed by both the ${existing.kind} and ${family.kind} families`);
    }
  }
  for (const info of family.formats) {
    const name = info.extension.toLowerCase();
    familiesByFormat.set(name, family);
    infoByFormat.set(name, info);
  }
}

/** Every registered format, sorted by extension. */
export function listFormats(): FormatInfo[] {
  return [...infoByFormat.values()]
    .map((info) => ({ ...info }))
    .sort((a, b) => (a.extension < b.extension ? -1 : a.extension > b.extension ? 1 : 0));
}

/** The family that reads a format, or undefined when none does. */
export function familyFor(format: string): FormatFamily | undefined {
  return familiesByFormat.get(format.toLowerCase());
}

/** The registered description of a format, or undefined. */
export function formatInfo(format: string): FormatInfo | undefined {
  const info = infoByFormat.get(format.toLowerCase());
  return info === undefined ? undefined : { ...info };
}
