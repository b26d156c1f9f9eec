// Structured data and configuration files: JSON (and JSON vocabularies), NDJSON/JSON Lines,
// YAML, TOML, INI-style files, Java properties, CSV and TSV. One page each: a CSV is a single
// sheet, and its page carries no label. Malformed JSON cannot be read (extraction fails).

import type { FormatFamily } from '../extraction.ts';
import { delimitedToText } from '../text-formats/delimited.ts';
import { iniToText, propertiesToText } from '../text-formats/ini.ts';
import { jsonToText, ndjsonToText } from '../text-formats/json.ts';
import { tomlToText } from '../text-formats/toml.ts';
import { yamlToText } from '../text-formats/yaml.ts';
import { convertingFamily } from './text-input.ts';
import type { Converter, ConverterTable } from './text-input.ts';

const csv: Converter = (source) => delimitedToText(source, 'csv');
const tsv: Converter = (source) => delimitedToText(source, 'tsv');

const TABLE: ConverterTable = [
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

export const dataFamily: FormatFamily = convertingFamily('data', TABLE);
