// Subtitle files: SubRip, WebVTT, SubViewer (YouTube) and SubStation Alpha. One page of the
// spoken text, without cue numbers, timestamps or styling.

import type { Extraction, FormatFamily, FormatInfo } from '../extraction.ts';
import { cuesToText, substationToText } from '../text-formats/subtitles.ts';
import { onePage, readTextFile } from './text-input.ts';

const FORMATS: FormatInfo[] = [
  { extension: 'srt', mime: 'application/x-subrip', kind: 'subtitle' },
  { extension: 'vtt', mime: 'text/vtt', kind: 'subtitle' },
  { extension: 'sbv', mime: 'text/x-sbv', kind: 'subtitle' },
  { extension: 'ass', mime: 'text/x-ssa', kind: 'subtitle' },
  { extension: 'ssa', mime: 'text/x-ssa', kind: 'subtitle' },
];

export const subtitleFamily: FormatFamily = {
  kind: 'subtitle',
  formats: FORMATS,
  extract(bytes: Uint8Array, format: string): Extraction {
    const source = readTextFile(bytes);
    return onePage(format, format === 'ass' || format === 'ssa' ? substationToText(source) : cuesToText(source));
  },
};
