// A stand-in extraction worker for the extraction pool's tests (extraction-pool.test.ts): the
// real task path (extraction-task.ts) with a tiny extractor whose behaviour the file name picks,
// so the tests can make a worker answer, fail, loop forever or run out of memory.

import { ExtractionError } from '../../extract/index.ts';
import type { Extraction } from '../../extract/index.ts';
import { extractionTaskRunner } from './extraction-task.ts';

async function testExtract(bytes: Uint8Array, fileName: string | null): Promise<Extraction> {
  switch (fileName) {
    case 'loop.txt':
      for (;;) {
        // A parser that never finishes.
      }
    case 'oom.txt': {
      const hoard: number[][] = [];
      for (;;) hoard.push(new Array<number>(1_000_000).fill(hoard.length));
    }
    case 'unsupported.bin':
      throw new ExtractionError('unsupported_file_type', 'no extractor reads this file type');
    case 'damaged.txt':
      throw new ExtractionError('extraction_failed', 'the file is damaged');
    case 'parser-bug.txt':
      throw new TypeError('unexpected token in stream');
    default: {
      // Pages separated by form feeds, as in a text dump of a PDF.
      const text = new TextDecoder().decode(bytes);
      const pages = text.split('\f').map((pageText, index) => ({ number: index + 1, label: null, text: pageText }));
      return { format: 'text', title: null, pages };
    }
  }
}

export default extractionTaskRunner(testExtract);
