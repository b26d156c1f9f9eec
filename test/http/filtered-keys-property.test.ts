// Property (issue 31 point 1): no answer to a key with a filter reveals a document outside it.
// A seeded generator makes documents (tenants, colours, numbers, tag arrays, a secret word and a
// vector of their own, some without a tenant), keys with random filters, and random searches —
// words, a filter of their own, facets, grouping, keyword, semantic and hybrid modes, also as
// multi-search queries (alone and federated), and facet value searches. Each answer
// to a filtered key must equal the master key's answer to the same search confined to the key's
// filter by a filter of its own (hits and scores, total, facets); and no answer to the key — hits,
// counts, facet values, suggestions, errors, listings, gets — may contain the id or the secret
// word of a document it does not see. The search cache is on, and the master key asks the same
// searches in between, so an answer cached for one could only leak to the other by a shared key.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { matchesFilter, parseFilter } from '../../engine/index.ts';
import { seededRandom } from '../../engine/vectors/seeded-random.ts';
import type { Metadata } from '../../engine/index.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const DOCS = 80;
const KEYS = 8;
const SEARCHES_PER_KEY = 25;
const WORDS = ['river', 'stone', 'paper', 'lantern', 'copper', 'meadow', 'signal', 'harbor'];
const TENANTS = ['acme', 'globex', 'initech', 'umbrella'];
const COLORS = ['red', 'green', 'blue'];

interface Doc {
  id: string;
  text: string;
  metadata: Metadata;
  secret: string;
  vector: number[];
}

describe('keys with a filter reveal nothing outside it (property)', () => {
  // Seeded, so a failure can be replayed.
  const random = seededRandom(20261127);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  let server: TestServer;
  const docs: Doc[] = [];

  const randomFilter = (): Record<string, unknown> => {
    const kinds: (() => Record<string, unknown>)[] = [
      () => ({ tenant: pick(TENANTS) }),
      () => ({ tenant: [pick(TENANTS), pick(TENANTS)] }),
      () => ({ $or: [{ tenant: pick(TENANTS) }, { color: pick(COLORS) }] }),
      () => ({ n: { gte: Math.floor(random() * 50) } }),
      () => ({ $not: { tenant: pick(TENANTS) } }),
      () => ({ tenant: pick(TENANTS), color: pick(COLORS) }),
      () => ({ tags: pick(WORDS) }),
    ];
    return pick(kinds)();
  };

  before(async () => {
    // The search cache is on by default (32 MiB).
    server = await startTestServer({ refreshIntervalMs: 100 });
    const created = await server.request('POST', '/v1/collections', { name: 'shared', embedders: { mine: { source: 'user', dimensions: 3 } } });
    assert.equal(created.status, 201, created.text);
    for (let i = 0; i < DOCS; i++) {
      const id = `doc${String(i).padStart(3, '0')}`;
      const secret = `secret${i}x`;
      const words = Array.from({ length: 3 + Math.floor(random() * 8) }, () => pick(WORDS));
      const metadata: Metadata = { color: pick(COLORS), n: Math.floor(random() * 100), tags: [pick(WORDS), pick(WORDS)] };
      if (random() < 0.85) metadata.tenant = pick(TENANTS);
      docs.push({ id, text: `${words.join(' ')} ${secret}`, metadata, secret, vector: [random(), random(), random()] });
    }
    const written = await server.request('POST', '/v1/collections/shared/documents?refresh=wait_for', docs.map(({ id, text, metadata, vector }) => ({ id, text, metadata, vectors: { mine: vector } })));
    assert.equal(written.status, 200, written.text);
  });
  after(() => server.close());

  test('every answer equals the master key\'s confined to the filter, and none names a document outside it', async () => {
    for (let k = 0; k < KEYS; k++) {
      const filter = randomFilter();
      const made = await server.request('POST', '/v1/api-keys', { name: `tenant-${k}`, filter });
      assert.equal(made.status, 201, made.text);
      const as = { authorization: `Bearer ${made.body.key as string}` };
      const node = parseFilter(filter);
      const visible = new Set(docs.filter((doc) => matchesFilter(node, doc.metadata)).map((doc) => doc.id));
      const hidden = docs.filter((doc) => !visible.has(doc.id));
      const where = (what: string) => `key ${k} ${JSON.stringify(filter)}: ${what}`;
      const revealsNothing = (text: string, what: string): void => {
        for (const doc of hidden) {
          assert.ok(!text.includes(`"${doc.id}"`) && !text.includes(doc.secret), where(`${what} names ${doc.id}: ${text.slice(0, 300)}`));
        }
      };

      for (let s = 0; s < SEARCHES_PER_KEY; s++) {
        const own = random() < 0.4 ? randomFilter() : null;
        const mode = pick(['keyword', 'keyword', 'semantic', 'hybrid'] as const);
        // Now and then another tenant's secret word, as it is or with a typo ("did you mean" bait).
        const secret = pick(hidden.length > 0 ? hidden : docs).secret;
        const bait = random() < 0.5 ? secret : `${secret.slice(0, 2)}q${secret.slice(3)}`;
        const q = random() < 0.2 ? bait : Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(WORDS)).join(' ');
        const body: Record<string, unknown> = { q: mode === 'semantic' ? '' : q, limit: 100, facets: ['tenant', 'color'], mode };
        if (mode !== 'keyword') body.vector = [random(), random(), random()];
        if (random() < 0.2) body.distinct = 'color';
        const asKey = await server.request('POST', '/v1/collections/shared/search', own === null ? body : { ...body, filter: own }, as);
        assert.equal(asKey.status, 200, where(asKey.text));
        // The master key, confined by a filter of its own to what the key sees (and the search's own filter).
        const confined = own === null ? filter : { $not: { $or: [{ $not: filter }, { $not: own }] } };
        const asMaster = await server.request('POST', '/v1/collections/shared/search', { ...body, filter: confined });
        assert.equal(asMaster.status, 200, where(asMaster.text));
        const shown = (answer: { hits: { id: string; score: number }[]; total: number; facets: unknown }) => ({ hits: answer.hits.map(({ id, score }) => ({ id, score })), total: answer.total, facets: answer.facets });
        assert.deepEqual(shown(asKey.body), shown(asMaster.body), where(`${JSON.stringify(body)} own filter ${JSON.stringify(own)}`));
        for (const hit of asKey.body.hits as { id: string }[]) assert.ok(visible.has(hit.id), where(`hit ${hit.id}`));
        assert.equal(asKey.body.suggestions, undefined, where('suggestions'));
        revealsNothing(asKey.text, `search ${JSON.stringify(body)}`);

        // The same search as a multi-search query, alone and federated: the same answer.
        if (s % 4 === 0) {
          const query: Record<string, unknown> = { collection: 'shared', ...body, ...(own !== null && { filter: own }) };
          const multi = await server.request('POST', '/v1/multi-search', { queries: [query] }, as);
          assert.equal(multi.status, 200, where(multi.text));
          assert.deepEqual(shown(multi.body.results[0]), shown(asKey.body), where(`multi-search ${JSON.stringify(query)}`));
          revealsNothing(multi.text, `multi-search ${JSON.stringify(query)}`);
          const { limit: _limit, ...federatedQuery } = query;
          const federated = await server.request('POST', '/v1/multi-search', { queries: [federatedQuery], federation: { limit: 100 } }, as);
          const federatedMaster = await server.request('POST', '/v1/multi-search', { queries: [{ ...federatedQuery, filter: confined }], federation: { limit: 100 } });
          assert.equal(federated.status, 200, where(federated.text));
          const merged = (answer: { hits: { id: string; score: number }[]; total: number; facets_by_collection?: unknown }) => ({ hits: answer.hits.map(({ id, score }) => ({ id, score })), total: answer.total, facets: answer.facets_by_collection });
          assert.deepEqual(merged(federated.body), merged(federatedMaster.body), where(`federated ${JSON.stringify(federatedQuery)}`));
          revealsNothing(federated.text, `federated ${JSON.stringify(federatedQuery)}`);
        }

        // A facet value search: what was typed (now and then with a typo), among the words' matches or all documents.
        const facet = pick(['tenant', 'color', 'tags']);
        const typed = pick(facet === 'tenant' ? TENANTS : facet === 'color' ? COLORS : WORDS).slice(0, 1 + Math.floor(random() * 6));
        const facetBody = { facet, q: random() < 0.2 && typed.length > 4 ? `${typed.slice(0, 2)}x${typed.slice(3)}` : typed, query: random() < 0.5 ? q : '', limit: 100 };
        const facetsAsKey = await server.request('POST', '/v1/collections/shared/facet-search', own === null ? facetBody : { ...facetBody, filter: own }, as);
        const facetsAsMaster = await server.request('POST', '/v1/collections/shared/facet-search', { ...facetBody, filter: confined });
        assert.equal(facetsAsKey.status, 200, where(facetsAsKey.text));
        assert.deepEqual(facetsAsKey.body.values, facetsAsMaster.body.values, where(`facet search ${JSON.stringify(facetBody)}`));
        revealsNothing(facetsAsKey.text, `facet search ${JSON.stringify(facetBody)}`);
      }

      const listed = await server.request('GET', '/v1/collections/shared/documents?limit=100&fields=metadata', undefined, as);
      assert.deepEqual(listed.body.documents.map((doc: { id: string }) => doc.id), [...visible].sort(), where('listing'));
      revealsNothing(listed.text, 'listing');
      const missing = await server.request('GET', '/v1/collections/shared/documents/nobody', undefined, as);
      for (const doc of docs) {
        const got = await server.request('GET', `/v1/collections/shared/documents/${doc.id}`, undefined, as);
        if (visible.has(doc.id)) {
          assert.equal(got.status, 200, where(`get ${doc.id}`));
        } else {
          assert.equal(got.status, 404, where(`get ${doc.id}`));
          assert.equal(got.text.replace(doc.id, 'nobody'), missing.text, where(`get ${doc.id} answers as a missing document`));
          const similar = await server.request('POST', '/v1/collections/shared/search', { similar_to: doc.id }, as);
          assert.equal(similar.status, 404, where(`similar_to ${doc.id}`));
          revealsNothing(similar.text, `similar_to ${doc.id}`);
        }
      }
    }
  });
});
