// RTF → text: a tokenizer over the raw bytes with a group stack. Destination groups that are
// not body text ({\*…}, font/colour/style tables, \info, pictures, field instructions…) are
// skipped, except \title inside \info, which becomes the title. \par, \line, \sect, \page and
// \row end lines; \tab and \cell become tabs; \'hh bytes decode in the document's code page
// (\ansicpgN, default windows-1252); \uN is a UTF-16 unit followed by \ucN fallback characters
// to skip; \{ \} \\ are literal braces and backslash; \bin N skips N raw bytes.

import { decodeWindows1252 } from '../text-decoding.ts';
import { cleanTitle, tidyText, type TextConversion } from '../text-formats/tidy.ts';

/** Destinations whose content is not document text. */
const SKIPPED = new Set([
  'fonttbl', 'colortbl', 'stylesheet', 'listtable', 'listoverridetable', 'revtbl', 'rsidtbl', 'generator',
  'pict', 'object', 'objdata', 'nonshppict', 'themedata', 'colorschememapping', 'datastore', 'latentstyles',
  'xmlnstbl', 'fldinst', 'filetbl', 'mmathPr', 'pgdsctbl', 'protusertbl', 'userprops', 'docvar', 'field-inst',
]);

const SYMBOLS: Record<string, string> = {
  par: '\n', line: '\n', sect: '\n', page: '\n', row: '\n', tab: '\t', cell: '\t', nestcell: '\t',
  emdash: '\u2014', endash: '\u2013', bullet: '\u2022', lquote: '\u2018', rquote: '\u2019',
  ldblquote: '\u201c', rdblquote: '\u201d', emspace: ' ', enspace: ' ', qmspace: ' ', zwj: '\u200d',
  zwnj: '\u200c', ltrmark: '', rtlmark: '',
};

/** Code pages whose TextDecoder label is not simply `windows-N`. */
const CODE_PAGES: Record<number, string> = {
  437: 'ibm866', 850: 'windows-1252', 866: 'ibm866', 874: 'windows-874', 932: 'shift_jis', 936: 'gbk',
  949: 'euc-kr', 950: 'big5', 10000: 'macintosh', 20866: 'koi8-r', 28591: 'iso-8859-1', 65001: 'utf-8',
};

type Destination = 'text' | 'skip' | 'info' | 'title';

interface GroupState {
  destination: Destination;
  /** Fallback characters that follow each \uN (\ucN). */
  uc: number;
}

type Decode = (bytes: Uint8Array) => string;

/** A decoder for a Windows code page number (windows-1252 when the platform lacks it). */
function decoderFor(codePage: number): Decode {
  const label = CODE_PAGES[codePage] ?? `windows-${codePage}`;
  try {
    const decoder = new TextDecoder(label);
    // Node decodes the windows-1252 label as ISO-8859-1; the hand-made decoder is right.
    if (decoder.encoding === 'windows-1252') return decodeWindows1252;
    return (bytes) => decoder.decode(bytes);
  } catch {
    return decodeWindows1252;
  }
}

const isLetter = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

function hexValue(c: number): number {
  if (isDigit(c)) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** Reads an RTF document's text and \info\title. */
export function rtfToText(bytes: Uint8Array): TextConversion {
  const text: string[] = [];
  const title: string[] = [];
  let decode: Decode = decodeWindows1252;
  let state: GroupState = { destination: 'text', uc: 1 };
  const stack: GroupState[] = [];
  let pending: number[] = [];
  let pendingDestination: Destination = 'text';
  let skipFallback = 0;
  let atGroupStart = false;

  const sink = (destination: Destination): string[] | null =>
    destination === 'text' ? text : destination === 'title' ? title : null;
  const flush = (): void => {
    if (pending.length === 0) return;
    sink(pendingDestination)?.push(decode(new Uint8Array(pending)));
    pending = [];
  };
  const emit = (value: string): void => {
    flush();
    sink(state.destination)?.push(value);
  };
  /** One character of document text (raw or \'hh), unless it is a \uN fallback to skip. */
  const byte = (value: number): void => {
    if (skipFallback > 0) {
      skipFallback--;
      return;
    }
    if (pending.length > 0 && pendingDestination !== state.destination) flush();
    pendingDestination = state.destination;
    pending.push(value);
  };

  let i = 0;
  while (i < bytes.length) {
    const c = bytes[i];
    if (c === 0x7b /* { */) {
      flush();
      stack.push(state);
      state = { ...state };
      skipFallback = 0;
      atGroupStart = true;
      i++;
      continue;
    }
    if (c === 0x7d /* } */) {
      flush();
      const outer = stack.pop();
      if (outer === undefined) break; // the document's closing brace
      state = outer;
      skipFallback = 0;
      atGroupStart = false;
      i++;
      continue;
    }
    if (c === 0x0d || c === 0x0a || c === 0) {
      i++;
      continue;
    }
    if (c !== 0x5c /* \ */) {
      atGroupStart = false;
      byte(c);
      i++;
      continue;
    }
    // A control word or symbol.
    const next = bytes[i + 1];
    if (next === undefined) break;
    if (!isLetter(next)) {
      i += 2;
      const wasGroupStart = atGroupStart;
      atGroupStart = false;
      if (next === 0x27 /* ' */) {
        const value = (hexValue(bytes[i] ?? 0) << 4) | hexValue(bytes[i + 1] ?? 0);
        if (value >= 0) byte(value);
        i += 2;
      } else if (next === 0x2a /* * */) {
        if (wasGroupStart) state.destination = 'skip';
      } else if (next === 0x7b || next === 0x7d || next === 0x5c) {
        byte(next);
      } else if (next === 0x7e /* ~ */) {
        byte(0xa0);
      } else if (next === 0x5f /* _ */) {
        byte(0x2d);
      } else if (next === 0x0a || next === 0x0d) {
        if (skipFallback > 0) skipFallback--;
        else emit('\n');
      } else if (skipFallback > 0) {
        skipFallback--; // other control symbols (\- optional hyphen, \| …) count as one character
      }
      continue;
    }
    let end = i + 1;
    while (end < bytes.length && end - i <= 32 && isLetter(bytes[end])) end++;
    const word = String.fromCharCode(...bytes.subarray(i + 1, end));
    let parameter: number | null = null;
    let digitsEnd = end;
    if (bytes[digitsEnd] === 0x2d /* - */ && isDigit(bytes[digitsEnd + 1] ?? 0)) digitsEnd++;
    while (digitsEnd < bytes.length && digitsEnd - end < 11 && isDigit(bytes[digitsEnd])) digitsEnd++;
    if (digitsEnd > end) parameter = Number.parseInt(String.fromCharCode(...bytes.subarray(end, digitsEnd)), 10);
    i = digitsEnd;
    if (bytes[i] === 0x20) i++; // the delimiting space belongs to the control word
    const wasGroupStart = atGroupStart;
    atGroupStart = false;

    if (word === 'bin') {
      flush();
      i += Math.max(0, parameter ?? 0);
      continue;
    }
    if (skipFallback > 0) {
      // A control word standing in for the \uN character: it is part of the fallback.
      skipFallback--;
      continue;
    }
    if (word === 'u' && parameter !== null) {
      emit(String.fromCharCode(parameter < 0 ? parameter + 65536 : parameter & 0xffff));
      skipFallback = state.uc;
    } else if (word === 'uc' && parameter !== null) {
      state.uc = Math.max(0, parameter);
    } else if (word === 'ansicpg' && parameter !== null) {
      flush();
      decode = decoderFor(parameter);
    } else if (word === 'mac') {
      flush();
      decode = decoderFor(10000);
    } else if (word === 'info') {
      state.destination = 'info';
    } else if (word === 'title' && state.destination === 'info') {
      state.destination = 'title';
    } else if (SKIPPED.has(word) || (wasGroupStart && state.destination === 'info')) {
      state.destination = 'skip';
    } else if (SYMBOLS[word] !== undefined) {
      emit(SYMBOLS[word]);
    }
  }
  flush();
  return { title: cleanTitle(title.join('')), text: tidyText(text.join('')) };
}
