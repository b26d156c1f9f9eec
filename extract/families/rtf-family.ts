// Rich Text Format: one page of the document's text, with \info\title as the title (see
// extract/rtf/rtf-reader.ts for what is read and what is skipped).

import type { Extraction, FormatFamily } from '../extraction.ts';
import { rtfToText } from '../rtf/rtf-reader.ts';
import { onePage } from './text-input.ts';

export const rtfFamily: FormatFamily = {
  kind: 'office',
  formats: [{ extension: 'rtf', mime: 'application/rtf', kind: 'office' }],
  extract(bytes: Uint8Array, format: string): Extraction {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 16)).trimStart();
    if (!head.startsWith('{\\rtf')) throw new Error('the file does not start with {\\rtf');
    return onePage(format, rtfToText(bytes));
  },
};
