// Encodes a segment's metadata for filtering, faceting and sorting with no setup. For every
// field: a dictionary of its distinct values in one typed order (numbers ascending, then
// strings by code point, then false, true), the docs of each value laid out in that order (so a
// range of values is one contiguous run of docs), and per doc the ordinals of its values (a
// column for sorting and counting). Array values index each element.

import { ByteWriter, newArray } from '../../storage/index.ts';
import type { Metadata } from '../document.ts';
import { compareCodePoints } from './term-order.ts';

const encoder = new TextEncoder();

/** One field's values and docs, gathered while documents stream by. */
class FieldValues {
  readonly numbers = new Map<number, number[]>();
  readonly strings = new Map<string, number[]>();
  readonly booleans = new Map<boolean, number[]>();

  add(doc: number, value: string | number | boolean): void {
    const map = (typeof value === 'number' ? this.numbers : typeof value === 'string' ? this.strings : this.booleans) as Map<
      typeof value,
      number[]
    >;
    let docs = map.get(value);
    if (docs === undefined) map.set(value, (docs = []));
    if (docs[docs.length - 1] !== doc) docs.push(doc);
  }
}

/**
 * Gathers metadata values doc by doc (docs in ascending order) and encodes them: the field names
 * and one section per field (named by position). A merge feeds it the values it reads back from
 * its segments' fields; only which doc has which values matters, not how they were written.
 */
export class MetadataEncoder {
  private readonly byField = new Map<string, FieldValues>();

  /** The field `name`, even if no doc gets a value of it (a doc's empty array counts). */
  field(name: string): { add(doc: number, value: string | number | boolean): void } {
    let values = this.byField.get(name);
    if (values === undefined) this.byField.set(name, (values = new FieldValues()));
    return values;
  }

  finish(docCount: number): { fields: string[]; sections: Uint8Array[] } {
    const fields = [...this.byField.keys()].sort(compareCodePoints);
    return { fields, sections: fields.map((name) => encodeField(this.byField.get(name)!, docCount)) };
  }
}

/** The field names and one encoded section per field (named by position). */
export function encodeMetadata(metadata: readonly Metadata[]): { fields: string[]; sections: Uint8Array[] } {
  const encoder = new MetadataEncoder();
  metadata.forEach((fields, doc) => {
    for (const [name, value] of Object.entries(fields)) {
      const values = encoder.field(name);
      if (Array.isArray(value)) for (const element of value) values.add(doc, element);
      else values.add(doc, value);
    }
  });
  return encoder.finish(metadata.length);
}

/*
 * Field section layout (little-endian, typed arrays 8-byte aligned from the section start):
 *   u32 numberCount, stringCount, booleanCount, postingCount, docCount, stringBytes, (2 × u32 pad)
 *   f64 × numberCount              numbers, ascending
 *   u32 × (stringCount + 1)        string offsets into the string bytes
 *   u8 × stringBytes               UTF-8 strings, by code point
 *   u8 × booleanCount              0 = false, 1 = true, ascending
 *   u32 × (distinct + 1)           valueStarts: where each value's docs start in docsByValue
 *   u32 × postingCount             docsByValue
 *   u32 × (docCount + 1)           docStarts: where each doc's ordinals start in docOrds
 *   u32 × postingCount             docOrds, ascending per doc
 */
export const FIELD_HEADER_WORDS = 8;

function encodeField(values: FieldValues, docCount: number): Uint8Array {
  const numbers = [...values.numbers.keys()].sort((a, b) => a - b);
  const strings = [...values.strings.keys()].sort(compareCodePoints);
  const booleans = [...values.booleans.keys()].sort((a, b) => Number(a) - Number(b));
  const docLists: number[][] = [
    ...numbers.map((n) => values.numbers.get(n)!),
    ...strings.map((s) => values.strings.get(s)!),
    ...booleans.map((b) => values.booleans.get(b)!),
  ];
  const postingCount = docLists.reduce((sum, docs) => sum + docs.length, 0);
  const stringBytes = strings.map((s) => encoder.encode(s));
  const stringByteLength = stringBytes.reduce((sum, bytes) => sum + bytes.length, 0);

  const valueStarts = new Uint32Array(docLists.length + 1);
  const docsByValue = newArray(Uint32Array, postingCount);
  const ordsPerDoc = new Uint32Array(docCount);
  let at = 0;
  docLists.forEach((docs, ord) => {
    valueStarts[ord] = at;
    for (const doc of docs) {
      docsByValue[at++] = doc;
      ordsPerDoc[doc]++;
    }
  });
  valueStarts[docLists.length] = at;
  const docStarts = new Uint32Array(docCount + 1);
  for (let doc = 0; doc < docCount; doc++) docStarts[doc + 1] = docStarts[doc] + ordsPerDoc[doc];
  const docOrds = newArray(Uint32Array, postingCount);
  const fill = docStarts.slice(0, docCount);
  docLists.forEach((docs, ord) => {
    for (const doc of docs) docOrds[fill[doc]++] = ord; // ords ascend because values are visited in order
  });

  const writer = new ByteWriter(64 + numbers.length * 8 + stringByteLength + postingCount * 8 + docCount * 4);
  for (const word of [numbers.length, strings.length, booleans.length, postingCount, docCount, stringByteLength, 0, 0]) writer.writeU32(word);
  for (const n of numbers) writer.writeF64(n);
  let offset = 0;
  for (const bytes of stringBytes) {
    writer.writeU32(offset);
    offset += bytes.length;
  }
  writer.writeU32(offset);
  for (const bytes of stringBytes) writer.writeBytes(bytes);
  for (const b of booleans) writer.writeU8(b ? 1 : 0);
  for (const array of [valueStarts, docsByValue, docStarts, docOrds]) {
    writer.align(8);
    writer.writeBytes(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  }
  return writer.finish();
}
