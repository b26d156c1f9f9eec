// A collection's search settings (docs/api.md, "Typo tolerance" `typo_tolerance`): the engine's TypoTolerance
// (camelCase) to and from the API's shape (snake_case, also how collection.json stores it), and
// a client's partial settings applied over the current ones (create: over the defaults; PATCH:
// over what the collection has), with the one rule a schema cannot say: `two_typos` ≥ `one_typo`.

import { Compile } from 'typebox/compile';
import { DEFAULT_TYPO_TOLERANCE } from '../../engine/index.ts';
import type { TypoTolerance } from '../../engine/index.ts';
import { TypoToleranceSchema } from './settings-shapes.ts';
import type { TypoTolerancePatch, TypoToleranceWire } from './settings-shapes.ts';
import { FolioError } from '../errors/index.ts';

const storedTypoTolerance = Compile(TypoToleranceSchema);

export function typoToleranceToWire(tolerance: TypoTolerance): TypoToleranceWire {
  return {
    enabled: tolerance.enabled,
    min_word_size: { one_typo: tolerance.minWordSize.oneTypo, two_typos: tolerance.minWordSize.twoTypos },
    disable_on_numbers: tolerance.disableOnNumbers,
    disable_on_fields: [...tolerance.disableOnFields],
  };
}


/** The typo tolerance stored in collection.json, or null when it is not a valid one. */
export function typoToleranceFromStored(value: unknown): TypoTolerance | null {
  if (!storedTypoTolerance.Check(value)) return null;
  const wire = value as TypoToleranceWire;
  if (wire.min_word_size.two_typos < wire.min_word_size.one_typo) return null;
  return {
    enabled: wire.enabled,
    minWordSize: { oneTypo: wire.min_word_size.one_typo, twoTypos: wire.min_word_size.two_typos },
    disableOnNumbers: wire.disable_on_numbers,
    disableOnFields: [...wire.disable_on_fields],
  };
}

/**
 * `patch` over `current` (fields left out are kept); `path` names the patch in the request for
 * errors. Throws FolioError `validation_failed` when `two_typos` < `one_typo`.
 */
export function applyTypoTolerancePatch(current: TypoTolerance, patch: TypoTolerancePatch | undefined, path: string): TypoTolerance {
  if (patch === undefined) return current;
  const next: TypoTolerance = {
    enabled: patch.enabled ?? current.enabled,
    minWordSize: {
      oneTypo: patch.min_word_size?.one_typo ?? current.minWordSize.oneTypo,
      twoTypos: patch.min_word_size?.two_typos ?? current.minWordSize.twoTypos,
    },
    disableOnNumbers: patch.disable_on_numbers ?? current.disableOnNumbers,
    disableOnFields: patch.disable_on_fields === undefined ? [...current.disableOnFields] : [...new Set(patch.disable_on_fields)],
  };
  if (next.minWordSize.twoTypos < next.minWordSize.oneTypo) {
    const message = `min_word_size.two_typos (${next.minWordSize.twoTypos}) must be at least one_typo (${next.minWordSize.oneTypo})`;
    throw new FolioError('validation_failed', message, [{ path: `${path}/min_word_size/two_typos`, message }]);
  }
  return next;
}

/** The defaults, fresh (the frozen constant is never handed out). */
export function defaultTypoTolerance(): TypoTolerance {
  return applyTypoTolerancePatch(DEFAULT_TYPO_TOLERANCE, {}, '');
}
