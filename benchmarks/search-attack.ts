// Search under attack (issue 18, point 1): how long a cheap search from one key waits while
// another key sends the searches that stalled Folio before — the 498-word phrase `"a a … a"`
// over a document of 200,000 `a` (and a deleted copy of it), and twenty clients sending
// searches of many short prefixes over the GCIDE dictionary, with facets and an exact total — and how much memory the server
// takes meanwhile. Runs the server twice, in the same run: with its defaults (a 2 s search
// timeout, each key limited to one fewer search than the threads) and with both protections
// off (`--search-timeout 0 --key-search-concurrency <threads>`), the phrase matcher being the
// same in both. The attacker's key has a rate limit high enough not to be what stops it.
//
//   npm run build && tsx benchmarks/search-attack.ts [--docs 126236] [--cheap 300]

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GCIDE_CORPUS, gcideAvailable } from './gcide-corpus.ts';
import { BENCH_MASTER_KEY, folioCaller } from './folio-api.ts';
import { KeepAliveClient } from './keep-alive-client.ts';
import { percentile } from './latency.ts';
import { markdownTable } from './markdown-table.ts';
import { currentRssBytes, peakRssBytes } from './proc-memory.ts';
import { startServerProcess } from './server-process.ts';

const { values } = parseArgs({ options: { docs: { type: 'string', default: '126236' }, cheap: { type: 'string', default: '300' } } });
const DOCS = Number(values.docs);
const CHEAP_SEARCHES = Number(values.cheap);
const PHRASE = `"${new Array(498).fill('a').join(' ')}"`;
/** Sixteen two-letter prefixes, each expanding to up to 64 terms; facets and an exact total make every match count. */
const PREFIXES = 'co* re* in* de* pr* st* ma* ca* pa* se* di* tr* ex* un* ad* fo*';
const PREFIX_EXTRAS = 'facets=pos,letter&track_total=true';
const PHRASE_CLIENTS = 2;
const PREFIX_CLIENTS = 20;
const CHEAP_QUERY = 'q=harbour&limit=10';

interface Outcome {
  setup: string;
  attack: string;
  cheapP50: number;
  cheapP99: number;
  cheapMax: number;
  attackAnswers: string;
  peakRssMb: number;
}

async function main(): Promise<void> {
  if (!gcideAvailable()) throw new Error('GCIDE is missing: the benchmark reads ../shared/corpora/gcide');
  const corpus = readFileSync(GCIDE_CORPUS, 'utf8').split('\n').filter((line) => line !== '').slice(0, DOCS);
  const outcomes: Outcome[] = [];
  for (const [setup, args] of [
    ['defaults (2 s timeout, 1 search per key)', []],
    ['protections off', ['--search-timeout', '0', '--key-search-concurrency', '2']],
  ] as const) {
    outcomes.push(...(await runSetup(setup, [...args], corpus)));
  }
  console.log(`\nSearch under attack: ${DOCS.toLocaleString('en')} GCIDE entries + the 200,000-word document, 2 search threads, ${new Date().toISOString().slice(0, 10)}\n`);
  console.log(
    markdownTable(
      ['Server', 'Attack', 'Cheap search p50 (ms)', 'p99 (ms)', 'max (ms)', 'Attacker answers', 'Peak RSS (MB)'],
      outcomes.map((o) => [o.setup, o.attack, o.cheapP50.toFixed(1), o.cheapP99.toFixed(1), o.cheapMax.toFixed(1), o.attackAnswers, String(o.peakRssMb)]),
    ),
  );
}

async function runSetup(setup: string, args: string[], corpus: string[]): Promise<Outcome[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-attack-'));
  const server = await startServerProcess(dataDir, BENCH_MASTER_KEY, ['--search-threads', '2', '--search-cache-mb', '0', ...args]);
  try {
    const call = folioCaller(server.url);
    await call('POST', '/v1/collections', JSON.stringify({ name: 'attack' }));
    for (let i = 0; i < corpus.length; i += 5_000) {
      await call('POST', '/v1/collections/attack/documents?refresh=wait_for', corpus.slice(i, i + 5_000).join('\n'), 'application/x-ndjson');
    }
    const bomb = new Array(200_000).fill('a').join(' ');
    await call('POST', '/v1/collections/attack/documents', JSON.stringify([{ id: 'bomb', text: bomb }, { id: 'bomb-deleted', text: bomb }]));
    await call('DELETE', '/v1/collections/attack/documents/bomb-deleted?refresh=wait_for');
    const keyOf = async (name: string): Promise<string> =>
      (await call('POST', '/v1/api-keys', JSON.stringify({ name, scopes: ['search'], rate_limit: { per_second: 1_000_000, burst: 1_000_000 } }))).key;
    const attacker = { authorization: `Bearer ${await keyOf('attacker')}` };
    const victim = { authorization: `Bearer ${await keyOf('victim')}` };
    const pid = server.child.pid!;

    const outcomes: Outcome[] = [];
    for (const [attack, clients, query] of [
      ['none', 0, ''],
      [`phrase of 498 × a, ${PHRASE_CLIENTS} clients`, PHRASE_CLIENTS, `q=${encodeURIComponent(PHRASE)}&fields=id`],
      [`16 prefixes + facets, ${PREFIX_CLIENTS} clients`, PREFIX_CLIENTS, `q=${encodeURIComponent(PREFIXES)}&${PREFIX_EXTRAS}&fields=id`],
    ] as const) {
      let stopped = false;
      const answers = new Map<string, number>();
      const attackers = Array.from({ length: clients }, async () => {
        const client = new KeepAliveClient(server.url, attacker);
        while (!stopped) {
          const { status } = await client.request(`/v1/collections/attack/search?${query}`).catch(() => ({ status: 0 }));
          answers.set(String(status), (answers.get(String(status)) ?? 0) + 1);
        }
        client.close();
      });
      let peakRss = 0;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, currentRssBytes(pid) ?? 0)), 50);
      // Let the attack take hold before measuring.
      await new Promise((resolve) => setTimeout(resolve, clients === 0 ? 0 : 1_000));
      const cheap = new KeepAliveClient(server.url, victim);
      const samples: number[] = [];
      for (let i = 0; i < CHEAP_SEARCHES; i++) {
        const started = performance.now();
        const { status } = await cheap.request(`/v1/collections/attack/search?${CHEAP_QUERY}`);
        samples.push(performance.now() - started);
        if (status !== 200) throw new Error(`cheap search answered ${status}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      cheap.close();
      stopped = true;
      await Promise.all(attackers);
      clearInterval(sampler);
      const sorted = Float64Array.from(samples).sort();
      outcomes.push({
        setup,
        attack,
        cheapP50: percentile(sorted, 50),
        cheapP99: percentile(sorted, 99),
        cheapMax: sorted[sorted.length - 1],
        attackAnswers: clients === 0 ? '—' : [...answers].map(([status, count]) => `${count} × ${status}`).join(', '),
        peakRssMb: Math.round(Math.max(peakRss, 0) / 2 ** 20),
      });
      console.log(JSON.stringify(outcomes.at(-1)));
    }
    console.log(`${setup}: peak RSS over the whole run ${Math.round((peakRssBytes(pid) ?? 0) / 2 ** 20)} MB`);
    return outcomes;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
