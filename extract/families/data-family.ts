// Structured data and configuration files: JSON (and JSON vocabularies), NDJSON/JSON Lines,
// YAML, TOML, INI-style files, Java properties, CSV and TSV. One page each: a CSV is a single
// sheet, and its page carries no label. Malformed JSON cannot be read (extraction fails).

import type { Extraction, FormatFamily, FormatInfo } from '../extraction.ts';
import { delimitedToText } from '../text-formats/delimited.ts';
import { iniToText, propertiesToText } from '../text-formats/ini.ts';
import { jsonToText, ndjsonToText } from '../text-formats/json.ts';
import type { TextConversion } from '../text-formats/tidy.ts';
import { tomlToText } from '../text-formats/toml.ts';
import { yamlToText } from '../text-formats/yaml.ts';
import { onePage, readTextFile } from './text-input.ts';

type Converter = (source: string) => TextConversion;

const csv: Converter = (source) => delimitedToText(source, 'csv');
const tsv: Converter = (source) => delimitedToText(source, 'tsv');

const TABLE: ReadonlyArray<[string, string, Converter]> = [
  ['json', 'application/json', jsonToText],
  ['geojson', 'application/geo+json', jsonToText],
  ['jsonld', 'application/ld+json', jsonToText],
  ['ipynb', 'application/x-ipynb+json', jsonToText],
  ['webmanifest', 'application/manifest+json', jsonToText],
  ['ndjson', 'application/x-ndjson', ndjsonToText],
  ['jsonl', 'application/jsonl', ndjsonToText],
  ['yaml', 'application/yaml', yamlToText],
  ['yml', 'application/yaml', yamlToText],
  ['toml', 'application/toml', tomlToText],
  ['ini', 'text/x-ini', iniToText],
  ['cfg', 'text/x-ini', iniToText],
  ['conf', 'text/plain', iniToText],
  ['properties', 'text/x-java-properties', propertiesToText],
  ['csv', 'text/csv', csv],
  ['tsv', 'text/tab-separated-values', tsv],
];

const CONVERTERS = new Map(TABLE.map(([extension, , convert]) => [extension, convert]));

export const dataFamily: FormatFamily = {
  kind: 'data',
  formats: TABLE.map(([extension, mime]): FormatInfo => ({ extension, mime, kind: 'data' })),
  extract(bytes: Uint8Array, format: string): Extraction {
    const convert = CONVERTERS.get(format);
    if (convert === undefined) throw new Error(`the data family does not read ${format}`);
    return onePage(format, convert(readTextFile(bytes)));
  },
};
