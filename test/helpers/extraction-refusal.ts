// The refusal a hostile file must get from the extractors: an ExtractionError with the code
// `extraction_failed` (never another error, never a result). Returns its message.

import assert from 'node:assert/strict';
import { ExtractionError, extractFile } from '../../extract/index.ts';

export async function extractionRefusal(bytes: Uint8Array, name: string): Promise<string> {
  try {
    await extractFile(bytes, name);
  } catch (error) {
    assert.ok(error instanceof ExtractionError, String(error));
    assert.equal(error.code, 'extraction_failed');
    return error.message;
  }
  assert.fail(`${name} was read`);
}
