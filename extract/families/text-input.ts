// Shared by the text-like families: decode a file's bytes to text (refusing binary content,
// which cannot be read as text) and wrap a converted text as a one-page extraction.

import type { Extraction } from '../extraction.ts';
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
