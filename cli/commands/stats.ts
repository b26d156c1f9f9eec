// `folio stats`: the server's version, uptime, memory and searches per second, then a table of
// its collections (documents, segments, size, state, embedding progress). Needs an admin key;
// `--json` prints the server's answer.

import type { Command } from 'commander';
import type { Stats } from '../../clients/typescript/index.ts';
import { connect } from '../connect.ts';
import { action } from '../errors.ts';
import { formatBytes } from '../../format/index.ts';
import { note, printJson, printTable, say } from '../output.ts';

/** `3 d 4 h`, `2 h 5 min`, `7 min 3 s`, `12 s`. */
export function formatDuration(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${seconds % 60} s`;
  return `${seconds} s`;
}

/** `12 embedded, 3 waiting` per embedder; '-' without embedders. */
function embeddingText(embedding: Stats['collections'][number]['embedding']): string {
  const parts = Object.entries(embedding).map(([name, progress]) => {
    const waiting = progress.pending > 0 ? `, ${progress.pending} waiting` : '';
    const failed = progress.failed > 0 ? `, ${progress.failed} failed` : '';
    return `${name}: ${progress.embedded} embedded${waiting}${failed}`;
  });
  return parts.length === 0 ? '-' : parts.join('; ');
}

async function stats(options: { json?: boolean }): Promise<void> {
  const answer = await (await connect()).stats();
  if (options.json) return printJson(answer);
  say(`Folio ${answer.version}, up ${formatDuration(answer.uptime_s)} (since ${answer.started_at.slice(0, 19).replace('T', ' ')} UTC)`);
  say(`Memory ${formatBytes(answer.memory.rss_bytes)} resident, heap ${formatBytes(answer.memory.heap_used_bytes)}`);
  say(`Searches ${answer.searches.total.toLocaleString('en')} answered, ${answer.searches.per_second} per second over the last minute\n`);
  if (answer.collections.length === 0) return note("No collections. Create one with 'folio collections create NAME'.");
  printTable(
    ['COLLECTION', 'DOCUMENTS', 'SEGMENTS', 'SIZE', 'STATE', 'EMBEDDING'],
    answer.collections.map((c) => [c.name, String(c.documents), String(c.segments), formatBytes(c.bytes), c.reason === undefined ? c.state : `${c.state}: ${c.reason}`, embeddingText(c.embedding)]),
  );
}

export function registerStats(program: Command): void {
  program
    .command('stats')
    .description('server and collection statistics (admin key)')
    .option('--json', "print the server's JSON answer")
    .action(action(stats));
}
