// Calendars (iCalendar .ics) and address cards (vCard .vcf): the human-written properties
// (event summaries, descriptions, places; names, organisations, notes, e-mails) as one page.

import type { Extraction, FormatFamily, FormatInfo } from '../extraction.ts';
import { formatsOf } from './format-rows.ts';
import { icalendarToText, vcardToText } from '../text-formats/vobject.ts';
import { onePage, readTextFile } from './text-input.ts';

const FORMATS: FormatInfo[] = [
  ...formatsOf('calendar', [
    ['text/calendar', 'ics', 'ical'],
  ]),
  ...formatsOf('contact', [
    ['text/vcard', 'vcf', 'vcard'],
  ]),
];

export const vobjectFamily: FormatFamily = {
  kind: 'vobject',
  formats: FORMATS,
  extract(bytes: Uint8Array, format: string): Extraction {
    const source = readTextFile(bytes);
    return onePage(format, format === 'ics' || format === 'ical' ? icalendarToText(source) : vcardToText(source));
  },
};
