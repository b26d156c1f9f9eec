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
  [jsonToText, 'application/json', 'json'],
  [jsonToText, 'application/geo+json', 'geojson'],
  [jsonToText, 'application/ld+json', 'jsonld'],
  [jsonToText, 'application/x-ipynb+json', 'ipynb'],
  [jsonToText, 'application/manifest+json', 'webmanifest'],
  [ndjsonToText, 'application/x-ndjson', 'ndjson'],
  [ndjsonToText, 'application/jsonl', 'jsonl'],
  [yamlToText, 'application/yaml', 'yaml', 'yml'],
  [tomlToText, 'application/toml', 'toml'],
  [iniToText, 'text/x-ini', 'ini', 'cfg'],
  [iniToText, 'text/plain', 'conf'],
  [propertiesToText, 'text/x-java-properties', 'properties'],
  [csv, 'text/csv', 'csv'],
  [tsv, 'text/tab-separated-values', 'tsv'],
];

export const dataFamily: FormatFamily = convertingFamily('data', TABLE);
