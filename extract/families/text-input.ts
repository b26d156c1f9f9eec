// Shared by the text-like families: decode a file's bytes to text (refusing binary content,
// which cannot be read as text), wrap a converted text as a one-page extraction, and make a
// family of formats each read by its own converter from a table.

import type { Extraction, FormatFamily, FormatInfo } from '../extraction.ts';
import { decodeText, looksLikeText } from '../text-decoding.ts';
import type { TextConversion } from '../text-formats/tidy.ts';

/** The file's text; throws when the bytes are binary rather than text. */
export function readTextFile(bytes: Uint8Array): string {
  const { text } = decodeText(bytes);
  if (!looksLikeText(text)) throw new Error('the file does not contain text (binary content)');
  return text;
}

/** A document without pages: one page, no label. */
export function onePage(format: string, conversion: TextConversion): Extraction {
  return { format, title: conversion.title, pages: [{ number: 1, label: null, text: conversion.text }] };
}

/** Turns a text file's text into readable text and its title. */
export type Converter = (source: string) => TextConversion;

/** Rows of a converting family: the converter, the MIME type, then the extensions it reads so. */
export type ConverterTable = ReadonlyArray<readonly [convert: Converter, mime: string, ...extensions: string[]]>;

/**
 * A family whose formats are each one page of text read by their table row's converter, from
 * the text `decode` finds in the bytes (`readTextFile` unless a format needs its own).
 */
export function convertingFamily(kind: string, table: ConverterTable, decode: (bytes: Uint8Array, format: string) => string = readTextFile): FormatFamily {
  const converters = new Map(table.flatMap(([convert, , ...extensions]) => extensions.map((extension) => [extension, convert] as const)));
  return {
    kind,
    formats: table.flatMap(([, mime, ...extensions]) => extensions.map((extension): FormatInfo => ({ extension, mime, kind }))),
    extract(bytes: Uint8Array, format: string): Extraction {
      const convert = converters.get(format);
      if (convert === undefined) throw new Error(`the ${kind} family does not read ${format}`);
      return onePage(format, convert(decode(bytes, format)));
    },
  };
}
