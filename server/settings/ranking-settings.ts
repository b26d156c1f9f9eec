// Ranking by fields (docs/api.md, "Ranking by fields"): a search's `boost`, or a collection's
// `ranking.boost` setting, checked beyond its schema — `metadata.<name>` naming an allowed field,
// `modifier` only without `recency`, durations read — and made into the engine's FieldBoosts.
// The collection keeps the boosts as written (its settings record shows them so) and parsed.

import { Compile } from 'typebox/compile';
import { FIELD_NAME_RULE, isAllowedFieldName } from '../../engine/index.ts';
import type { FieldBoost } from '../../engine/index.ts';
import { RankingSettingsSchema } from './settings-shapes.ts';
import type { FieldBoostWire, RankingSettingsWire } from './settings-shapes.ts';
import { FolioError } from '../errors/index.ts';
import type { FieldError } from '../errors/index.ts';

const storedRanking = Compile(RankingSettingsSchema);

/** Milliseconds per duration unit. */
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const DURATION = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h|d|w)$/;

/** The default ranking: no boosts. */
export const NO_RANKING: RankingSettingsWire = Object.freeze({ boost: [] }) as RankingSettingsWire;

/** `30d` → milliseconds (the schema has checked the form). */
function durationMs(text: string): number {
  const match = DURATION.exec(text)!;
  return Number(match[1]) * UNIT_MS[match[2]];
}

/**
 * The engine's boosts of `boosts` (schema-checked); `path` names them in the request for errors.
 * Throws FolioError `validation_failed` naming each broken rule.
 */
export function parseBoosts(boosts: readonly FieldBoostWire[], path: string): FieldBoost[] {
  const errors: FieldError[] = [];
  const parsed = boosts.map((wire, i): FieldBoost | null => {
    const name = wire.field.slice('metadata.'.length);
    if (!isAllowedFieldName(name)) {
      errors.push({ path: `${path}/${i}/field`, message: `${JSON.stringify(name)} is not an allowed field name (${FIELD_NAME_RULE})` });
      return null;
    }
    const factor = wire.factor ?? 1;
    if (wire.recency === undefined) return { kind: 'numeric', field: name, modifier: wire.modifier ?? 'none', factor };
    if (wire.modifier !== undefined) {
      errors.push({ path: `${path}/${i}/modifier`, message: 'a recency boost takes no modifier' });
      return null;
    }
    const scaleMs = durationMs(wire.recency.scale);
    if (scaleMs <= 0) {
      errors.push({ path: `${path}/${i}/recency/scale`, message: 'must be longer than 0' });
      return null;
    }
    return { kind: 'recency', field: name, factor, scaleMs, offsetMs: durationMs(wire.recency.offset ?? '0d'), decay: wire.recency.decay ?? 0.5 };
  });
  if (errors.length > 0) throw new FolioError('validation_failed', `${errors[0].path}: ${errors[0].message}`, errors);
  return parsed as FieldBoost[];
}

/** A client's `ranking` setting, checked: a copy as written (parseBoosts throws on a bad one). */
export function checkRanking(ranking: RankingSettingsWire, path: string): RankingSettingsWire {
  parseBoosts(ranking.boost, `${path}/boost`);
  return structuredClone(ranking);
}

/** The ranking setting read back from its stored form (absent: none); null when it is not valid. */
export function rankingFromStored(value: unknown): RankingSettingsWire | null {
  if (value === undefined) return NO_RANKING;
  if (!storedRanking.Check(value)) return null;
  try {
    return checkRanking(value as RankingSettingsWire, '');
  } catch {
    return null;
  }
}

/** The time a search's recency boosts measure from: now, to the minute (so repeated searches share the cache). */
export function boostClock(boosts: readonly FieldBoost[], now = Date.now()): number | undefined {
  return boosts.some((boost) => boost.kind === 'recency') ? now - (now % 60_000) : undefined;
}
