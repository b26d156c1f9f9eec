// iCalendar (ics) and vCard (vcf) → text. Both are "vObject" line formats: folded lines,
// `NAME;PARAM=…:VALUE` properties and escaped values. Only human-written properties are kept.

import { cleanTitle, tidyText, type TextConversion } from './tidy.ts';

interface Property {
  name: string;
  value: string;
}

/** Unfolds continuation lines and splits each line into a property name and raw value. */
function properties(source: string): Property[] {
  const unfolded = source.replace(/\r\n?/g, '\n').replace(/\n[ \t]/g, '');
  const out: Property[] = [];
  for (const line of unfolded.split('\n')) {
    const match = /^([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)?)((?:;[^:"]*(?:"[^"]*"[^:"]*)*)*):(.*)$/.exec(line);
    if (match === null) continue;
    const name = match[1].toUpperCase().replace(/^[^.]*\./, ''); // drop vCard group prefixes
    let value = match[3];
    if (/ENCODING=QUOTED-PRINTABLE/i.test(match[2])) value = decodeQuotedPrintable(value);
    out.push({ name, value });
  }
  return out;
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(value.slice(i + 1, i + 3))) {
      bytes.push(parseInt(value.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(value.charCodeAt(i) & 0xff);
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function unescape(value: string): string {
  return value.replace(/\\([nN,;\\:])/g, (_m, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** Structured values (`N`, `ORG`, `ADR`) separate components with unescaped semicolons. */
function components(value: string): string {
  return value
    .split(/(?<!\\);/)
    .map((part) => unescape(part).trim())
    .filter((part) => part !== '')
    .join(' ');
}

const CALENDAR_FIELDS = new Set(['SUMMARY', 'DESCRIPTION', 'LOCATION', 'COMMENT', 'X-WR-CALNAME', 'X-WR-CALDESC']);

/** The readable text of an iCalendar file: summaries, descriptions, locations of each component. */
export function icalendarToText(source: string): TextConversion {
  const out: string[] = [];
  let calendarName: string | null = null;
  let firstSummary: string | null = null;
  for (const { name, value } of properties(source)) {
    if (name === 'BEGIN' && out.length > 0) out.push('');
    if (!CALENDAR_FIELDS.has(name)) continue;
    const text = unescape(value);
    if (name === 'X-WR-CALNAME' && calendarName === null) calendarName = cleanTitle(text);
    if (name === 'SUMMARY' && firstSummary === null) firstSummary = cleanTitle(text);
    out.push(text);
  }
  return { title: calendarName ?? firstSummary, text: tidyText(out.join('\n')) };
}

const CARD_FIELDS = new Set(['FN', 'NICKNAME', 'ORG', 'TITLE', 'ROLE', 'NOTE', 'EMAIL', 'ADR', 'URL']);

/** The readable text of a vCard file: name, organisation, title, note, e-mail of each card. */
export function vcardToText(source: string): TextConversion {
  const out: string[] = [];
  let firstName: string | null = null;
  for (const { name, value } of properties(source)) {
    if (name === 'BEGIN' && out.length > 0) out.push('');
    if (!CARD_FIELDS.has(name)) continue;
    const text = name === 'ORG' || name === 'ADR' ? components(value) : unescape(value);
    if (name === 'FN' && firstName === null) firstName = cleanTitle(text);
    out.push(text);
  }
  return { title: firstName, text: tidyText(out.join('\n')) };
}
