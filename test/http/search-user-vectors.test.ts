// `user` embedders over real HTTP: documents carry their own vectors (checked against the
// embedder's dimensions before anything is written, in JSON arrays, NDJSON and single
// documents alike), and filtered semantic searches with a caller's vector return exactly what a
// brute-force cosine scan of the live documents the filter admits returns (their total the 100
// nearest, a semantic search's matches) — filters applied
// before ranking, deletes and replacements respected.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '../helpers/poll.ts';
import { seededRandom } from '../helpers/seeded-random.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const DIMS = 8;
/** The nearest documents a semantic search counts as matches (docs/api.md). */
const SEMANTIC_MATCHES = 100;

interface Doc {
  id: string;
  text: string;
  metadata: { group: number; color: string };
  vectors: { mine: number[] };
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

describe('user embedders: documents carry their vectors', () => {
  let server: TestServer;
  const random = seededRandom(16);
  const vector = () => Array.from({ length: DIMS }, () => random() * 2 - 1);
  const docs = new Map<string, Doc>();

  before(async () => {
    server = await startTestServer({ refreshIntervalMs: 50 });
    const created = await server.request('POST', '/v1/collections', { name: 'vectors', embedders: { mine: { source: 'user', dimensions: DIMS } } });
    assert.equal(created.status, 201, created.text);
    const make = (i: number): Doc => ({ id: `d${String(i).padStart(3, '0')}`, text: `document ${i}`, metadata: { group: i % 7, color: ['red', 'green', 'blue'][i % 3] }, vectors: { mine: vector() } });
    const batch = Array.from({ length: 150 }, (_, i) => make(i));
    assert.equal((await server.request('POST', '/v1/collections/vectors/documents', batch)).status, 200);
    const ndjson = Array.from({ length: 150 }, (_, i) => make(150 + i));
    const lines = ndjson.map((doc) => JSON.stringify(doc)).join('\n');
    assert.equal((await server.request('POST', '/v1/collections/vectors/documents', lines, { 'content-type': 'application/x-ndjson' })).status, 200);
    for (const doc of [...batch, ...ndjson]) docs.set(doc.id, doc);
    await server.request('POST', '/v1/collections/vectors/refresh');
    // Replace some, delete others (after a refresh, so deletes hit committed segments).
    for (let i = 0; i < 300; i += 10) {
      const replaced = { ...make(i), id: `d${String(i).padStart(3, '0')}` };
      assert.equal((await server.request('PUT', `/v1/collections/vectors/documents/${replaced.id}`, { text: replaced.text, metadata: replaced.metadata, vectors: replaced.vectors })).status, 200);
      docs.set(replaced.id, replaced);
    }
    for (let i = 5; i < 300; i += 25) {
      const id = `d${String(i).padStart(3, '0')}`;
      assert.equal((await server.request('DELETE', `/v1/collections/vectors/documents/${id}`)).status, 204);
      docs.delete(id);
    }
    await pollUntil('all embedded', 30_000, async () => {
      const record = (await server.request('GET', '/v1/collections/vectors')).body;
      return record.embedding.mine.embedded === docs.size && record.embedding.mine.pending === 0;
    });
  });
  after(() => server.close());

  test('filtered semantic search equals a brute-force scan', async () => {
    const filters: (Record<string, unknown> | null)[] = [null, { group: 3 }, { color: ['red', 'blue'], group: { gte: 2 } }, { $not: { color: 'green' } }];
    for (const filter of filters) {
      for (let q = 0; q < 5; q++) {
        const query = vector();
        const expected = [...docs.values()]
          .filter((doc) => {
            if (filter === null) return true;
            if ('group' in filter && typeof filter.group === 'number' && doc.metadata.group !== filter.group) return false;
            if ('color' in filter && Array.isArray(filter.color) && !filter.color.includes(doc.metadata.color)) return false;
            if ('group' in filter && typeof filter.group === 'object' && doc.metadata.group < 2) return false;
            if ('$not' in filter && doc.metadata.color === 'green') return false;
            return true;
          })
          .map((doc) => ({ id: doc.id, score: cosine(query, doc.vectors.mine) }))
          .sort((a, b) => b.score - a.score);
        const response = await server.request('POST', '/v1/collections/vectors/search', { mode: 'semantic', vector: query, filter, limit: 20, fields: ['id'] });
        assert.equal(response.status, 200, response.text);
        // A semantic match is one of the 100 nearest the filter admits (docs/api.md).
        assert.equal(response.body.total, Math.min(SEMANTIC_MATCHES, expected.length), `total for ${JSON.stringify(filter)}`);
        assert.deepEqual(response.body.hits.map((hit: { id: string }) => hit.id), expected.slice(0, 20).map((e) => e.id), `filter ${JSON.stringify(filter)}, query ${q}`);
        response.body.hits.forEach((hit: { score: number }, i: number) => assert.ok(Math.abs(hit.score - expected[i].score) < 1e-5));
      }
    }
  });

  test('vectors are checked before anything is written, and returned with the document', async () => {
    const wrongLength = await server.request('POST', '/v1/collections/vectors/documents', [
      { id: 'ok', vectors: { mine: vector() } },
      { id: 'short', vectors: { mine: [1, 2, 3] } },
    ]);
    assert.equal(wrongLength.status, 400);
    assert.deepEqual(wrongLength.body.errors.map((e: { path: string }) => e.path), ['/body/1/vectors/mine']);
    const unknown = await server.request('POST', '/v1/collections/vectors/documents', `{"id":"x","vectors":{"other":[1]}}\n`, { 'content-type': 'application/x-ndjson' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.errors[0].path, /\/body\/line\/1\/vectors\/other/);
    const single = await server.request('PUT', '/v1/collections/vectors/documents/one', { vectors: { mine: [1] } });
    assert.equal(single.status, 400);
    assert.equal((await server.request('GET', '/v1/collections/vectors/documents/ok')).status, 404, 'nothing of the batch was written');
    const stored = await server.request('GET', '/v1/collections/vectors/documents/d001');
    assert.deepEqual(stored.body.vectors.mine, docs.get('d001')!.vectors.mine);
  });

  test('similar_to: the nearest documents to a document’s own vector, itself left out', async () => {
    const source = docs.get('d001')!;
    const expected = [...docs.values()]
      .filter((doc) => doc.id !== 'd001')
      .map((doc) => ({ id: doc.id, score: cosine(source.vectors.mine, doc.vectors.mine) }))
      .sort((a, b) => b.score - a.score);
    const response = await server.request('GET', '/v1/collections/vectors/search?similar_to=d001&limit=10&fields=id');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.hits.map((hit: { id: string }) => hit.id), expected.slice(0, 10).map((e) => e.id));
    assert.equal(response.body.total, Math.min(SEMANTIC_MATCHES, docs.size - 1));
    const missing = await server.request('GET', '/v1/collections/vectors/search?similar_to=nope');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'document_not_found');
  });

  test('a user embedder needs the caller’s vector', async () => {
    const response = await server.request('GET', '/v1/collections/vectors/search?q=document&mode=semantic');
    assert.equal(response.status, 400);
    assert.match(response.text, /vector/);
  });
});
