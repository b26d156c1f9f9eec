// PDF documents, read with pdf.js (see extract/pdf/): one page per PDF page with its label
// (`iv`, `A-3`) when the document defines page labels, and the title from its metadata.

import type { Extraction, ExtractionOptions, FormatFamily } from '../extraction.ts';
import { readPdf } from '../pdf/read-pdf.ts';

export const pdfFamily: FormatFamily = {
  kind: 'pdf',
  formats: [{ extension: 'pdf', mime: 'application/pdf', kind: 'pdf' }],
  async extract(bytes: Uint8Array, format: string, limits: ExtractionOptions): Promise<Extraction> {
    const { title, pages } = await readPdf(bytes, limits);
    return { format, title, pages };
  },
};
