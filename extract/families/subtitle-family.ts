// Subtitle files: SubRip, WebVTT, SubViewer (YouTube) and SubStation Alpha. One page of the
// spoken text, without cue numbers, timestamps or styling.

import type { Extraction, FormatFamily, FormatInfo } from '../extraction.ts';
import { formatsOf } from './format-rows.ts';
import { cuesToText, substationToText } from '../text-formats/subtitles.ts';
import { onePage, readTextFile } from './text-input.ts';

const FORMATS: FormatInfo[] = formatsOf('subtitle', [
  ['application/x-subrip', 'srt'],
  ['text/vtt', 'vtt'],
  ['text/x-sbv', 'sbv'],
  ['text/x-ssa', 'ass', 'ssa'],
]);

export const subtitleFamily: FormatFamily = {
  kind: 'subtitle',
  formats: FORMATS,
  extract(bytes: Uint8Array, format: string): Extraction {
    const source = readTextFile(bytes);
    return onePage(format, format === 'ass' || format === 'ssa' ? substationToText(source) : cuesToText(source));
  },
};
