// Calendars (iCalendar .ics) and address cards (vCard .vcf): the human-written properties
// (event summaries, descriptions, places; names, organisations, notes, e-mails) as one page.

import type { Extraction, FormatFamily, FormatInfo } from '../extraction.ts';
import { icalendarToText, vcardToText } from '../text-formats/vobject.ts';
import { onePage, readTextFile } from './text-input.ts';

const FORMATS: FormatInfo[] = [
  { extension: 'ics', mime: 'text/calendar', kind: 'calendar' },
  { extension: 'ical', mime: 'text/calendar', kind: 'calendar' },
  { extension: 'vcf', mime: 'text/vcard', kind: 'contact' },
  { extension: 'vcard', mime: 'text/vcard', kind: 'contact' },
];

export const vobjectFamily: FormatFamily = {
  kind: 'vobject',
  formats: FORMATS,
  extract(bytes: Uint8Array, format: string): Extraction {
    const source = readTextFile(bytes);
    return onePage(format, format === 'ics' || format === 'ical' ? icalendarToText(source) : vcardToText(source));
  },
};
