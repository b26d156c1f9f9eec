// The list of format families the server reads. A new family is one import and one line in
// FAMILIES; extract/index.ts registers them all at start-up.

import type { FormatFamily } from '../extraction.ts';
import { archiveFamily } from './archive-family.ts';
import { dataFamily } from './data-family.ts';
import { emailFamily } from './email-family.ts';
import { imageFamily } from './image-family.ts';
import { markupFamily } from './markup-family.ts';
import { officeFamily } from './office-family.ts';
import { pdfFamily } from './pdf-family.ts';
import { plainTextFamily } from './plain-text-family.ts';
import { rtfFamily } from './rtf-family.ts';
import { sourceCodeFamily } from './source-code-family.ts';
import { subtitleFamily } from './subtitle-family.ts';
import { vobjectFamily } from './vobject-family.ts';
import { xmlFamily } from './xml-family.ts';

export const FAMILIES: readonly FormatFamily[] = [
  plainTextFamily,
  markupFamily,
  xmlFamily,
  dataFamily,
  subtitleFamily,
  vobjectFamily,
  sourceCodeFamily,
  rtfFamily,
  emailFamily,
  archiveFamily,
  officeFamily,
  imageFamily,
  pdfFamily,
];
