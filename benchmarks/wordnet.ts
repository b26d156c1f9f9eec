// WordNet 3.0 as Debian's wordnet-base installs it (/usr/share/wordnet): its synsets of two or
// more words, the synonym groups the synonym benchmarks configure (bench:synonyms on SciFact,
// bench:judged on Debian's packages).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const WORDNET_DIR = '/usr/share/wordnet';
const PARTS = ['noun', 'verb', 'adj', 'adv'];

/** Whether WordNet's data files are installed. */
export function wordnetAvailable(): boolean {
  return existsSync(join(WORDNET_DIR, 'data.noun'));
}

/** WordNet's synsets of two or more words, each a list of lower-case words or phrases. */
export function readSynsets(): string[][] {
  const synsets: string[][] = [];
  for (const part of PARTS) {
    for (const line of readFileSync(join(WORDNET_DIR, `data.${part}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue; // the licence header
      const fields = line.split(' ');
      const count = Number.parseInt(fields[3], 16);
      const words = new Set<string>();
      for (let i = 0; i < count; i++) words.add(fields[4 + i * 2].replace(/\(.*\)$/, '').replaceAll('_', ' ').toLowerCase());
      if (words.size >= 2) synsets.push([...words]);
    }
  }
  return synsets;
}
