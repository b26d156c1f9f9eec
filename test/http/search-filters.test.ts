// Filters and facets over HTTP (docs/api.md, "Search"): every filter form docs/api.md documents (equality, any-of
// arrays, numeric and string ranges, $or, $not, fields ANDed) on GET and POST, type-strict
// equality, an empty q with a filter; facets counted over all matches (not the page), ordered
// by count, cut by facet_limit, with facet_stats for numeric fields; facets across several
// segments with replaced and deleted documents; a PATCH of metadata seen by filters.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

type Metadata = Record<string, string | number | boolean | string[] | number[]>;

const BOOKS: { id: string; title: string | null; text: string; metadata: Metadata }[] = [
  { id: 'dune', title: 'Dune', text: 'desert planet and spice', metadata: { genre: 'scifi', year: 1965, tags: ['classic', 'space'], rating: 4.5, author: 'Herbert', available: true } },
  { id: 'neuromancer', title: 'Neuromancer', text: 'cyberspace and a hacker', metadata: { genre: 'scifi', year: 1984, tags: ['cyberpunk'], rating: 4.1, author: 'Gibson', available: false } },
  { id: 'hobbit', title: 'The Hobbit', text: 'a hobbit on a journey', metadata: { genre: 'fantasy', year: 1937, tags: ['classic', 'quest'], rating: 4.7, author: 'Tolkien', available: true } },
  { id: 'earthsea', title: 'A Wizard of Earthsea', text: 'a young wizard', metadata: { genre: 'fantasy', year: 1968, tags: ['classic'], rating: 4.2, author: 'Le Guin', available: true } },
  { id: 'countzero', title: 'Count Zero', text: 'cyberspace again', metadata: { genre: 'scifi', year: 1986, tags: ['cyberpunk'], author: 'Gibson', available: true } },
  { id: 'gonegirl', title: 'Gone Girl', text: 'a missing wife', metadata: { genre: 'crime', year: 2012, tags: [], rating: 3.9, author: 'Flynn' } },
  { id: 'tattoo', title: 'The Girl with the Dragon Tattoo', text: 'a journalist and a hacker', metadata: { genre: 'crime', year: 2005, tags: ['nordic'], rating: 4, author: 'Larsson', available: false } },
  { id: 'ancillary', title: 'Ancillary Justice', text: 'a ship in a body', metadata: { genre: 'scifi', year: 2013, tags: ['space'], rating: 4, author: 'Leckie', available: true } },
  { id: 'notes', title: null, text: 'untitled notes about space', metadata: {} },
  { id: 'code-num', title: 'Numbered', text: 'coded', metadata: { code: 1 } },
  { id: 'code-str', title: 'Stringed', text: 'coded', metadata: { code: '1' } },
];
const ALL_IDS = BOOKS.map((book) => book.id).sort();

describe('search filters and facets', () => {
  let server: TestServer;
  const getSearch = async (collection: string, params: Record<string, string | number>) => {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
    const response = await server.request('GET', `/v1/collections/${collection}/search?${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const postSearch = async (collection: string, body: Record<string, unknown>) => {
    const response = await server.request('POST', `/v1/collections/${collection}/search`, body);
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  /** The ids a filter selects, asked by GET (URL-encoded JSON) and by POST; both must agree. */
  const filtered = async (filter: unknown, q = ''): Promise<string[]> => {
    const viaGet = await getSearch('books', { q, filter: JSON.stringify(filter), limit: 100 });
    const viaPost = await postSearch('books', { q, filter, limit: 100 });
    const ids = viaGet.hits.map((hit: { id: string }) => hit.id).sort();
    assert.deepEqual(viaPost.hits.map((hit: { id: string }) => hit.id).sort(), ids, `GET and POST differ for ${JSON.stringify(filter)}`);
    assert.equal(viaGet.total, ids.length);
    return ids;
  };

  before(async () => {
    server = await startTestServer({ refreshIntervalMs: 50 });
    for (const name of ['books', 'shelf', 'patched']) await server.request('POST', '/v1/collections', { name });
    assert.equal((await server.request('POST', '/v1/collections/books/documents?refresh=wait_for', BOOKS)).status, 200);
  });
  after(() => server.close());

  test('equality, and any of an array', async () => {
    assert.deepEqual(await filtered({ genre: 'scifi' }), ['ancillary', 'countzero', 'dune', 'neuromancer']);
    assert.deepEqual(await filtered({ tags: 'classic' }), ['dune', 'earthsea', 'hobbit']);
    assert.deepEqual(await filtered({ tags: ['cyberpunk', 'quest'] }), ['countzero', 'hobbit', 'neuromancer']);
    assert.deepEqual(await filtered({ available: false }), ['neuromancer', 'tattoo']);
    assert.deepEqual(await filtered({ rating: 4 }), ['ancillary', 'tattoo']);
    assert.deepEqual(await filtered({ genre: 'poetry' }), []);
    assert.deepEqual(await filtered({ missing_field: 'x' }), []);
  });

  test('equality is type-strict: 1 is not "1", true is not "true"', async () => {
    assert.deepEqual(await filtered({ code: 1 }), ['code-num']);
    assert.deepEqual(await filtered({ code: '1' }), ['code-str']);
    assert.deepEqual(await filtered({ code: [1, '1'] }), ['code-num', 'code-str']);
    assert.deepEqual(await filtered({ available: 'true' }), []);
  });

  test('numeric ranges: gte, gt, lt, lte', async () => {
    assert.deepEqual(await filtered({ year: { gte: 1965, lt: 1986 } }), ['dune', 'earthsea', 'neuromancer']);
    assert.deepEqual(await filtered({ year: { gt: 1965, lte: 1986 } }), ['countzero', 'earthsea', 'neuromancer']);
    assert.deepEqual(await filtered({ rating: { gte: 4.5 } }), ['dune', 'hobbit']);
    assert.deepEqual(await filtered({ year: { lt: 1900 } }), []);
  });

  test('string ranges compare by code point', async () => {
    // Flynn < G ≤ Gibson, Herbert < L < Larsson, Le Guin, Leckie
    assert.deepEqual(await filtered({ author: { gte: 'G', lt: 'L' } }), ['countzero', 'dune', 'neuromancer']);
    assert.deepEqual(await filtered({ author: { gt: 'Larsson' } }), ['ancillary', 'earthsea', 'hobbit']);
    // A string range never matches numbers, and a numeric one never matches strings.
    assert.deepEqual(await filtered({ year: { gte: '0' } }), []);
    assert.deepEqual(await filtered({ author: { gte: 0 } }), []);
  });

  test('$or, $not, and several fields ANDed', async () => {
    assert.deepEqual(await filtered({ $or: [{ genre: 'crime' }, { year: { lt: 1940 } }] }), ['gonegirl', 'hobbit', 'tattoo']);
    // $not also matches documents without the field.
    assert.deepEqual(await filtered({ $not: { genre: 'scifi' } }), ['code-num', 'code-str', 'earthsea', 'gonegirl', 'hobbit', 'notes', 'tattoo']);
    assert.deepEqual(await filtered({ genre: 'scifi', available: true, year: { gte: 1980 } }), ['ancillary', 'countzero']);
    assert.deepEqual(
      await filtered({ $or: [{ genre: 'fantasy' }, { $not: { tags: ['cyberpunk', 'space', 'classic', 'nordic'] } }], year: { gte: 1900 } }),
      ['earthsea', 'gonegirl', 'hobbit'],
    );
    assert.deepEqual(await filtered({ $not: { $or: [{ genre: 'scifi' }, { genre: 'fantasy' }, { genre: 'crime' }] } }), ['code-num', 'code-str', 'notes']);
  });

  test('an empty q with a filter returns the whole filtered set; {} and no filter match everything', async () => {
    const body = await getSearch('books', { filter: JSON.stringify({ genre: 'fantasy' }) });
    assert.equal(body.total, 2);
    assert.deepEqual(body.hits.map((hit: { id: string }) => hit.id).sort(), ['earthsea', 'hobbit']);
    assert.deepEqual(await filtered({}), ALL_IDS);
    assert.equal((await getSearch('books', { filter: '', limit: 100 })).total, ALL_IDS.length);
    assert.equal((await postSearch('books', { filter: null, limit: 100 })).total, ALL_IDS.length);
  });

  test('a filter narrows a text query', async () => {
    assert.deepEqual(await filtered({ author: 'Gibson' }, 'cyberspace'), ['countzero', 'neuromancer']);
    assert.deepEqual(await filtered({ author: 'Gibson', year: 1986 }, 'cyberspace'), ['countzero']);
    assert.deepEqual(await filtered({ genre: 'crime' }, 'hacker'), ['tattoo']);
  });

  test('facets count every match, not just the page, most frequent first', async () => {
    const body = await getSearch('books', { facets: 'genre,tags,available', limit: 1 });
    assert.equal(body.hits.length, 1);
    assert.deepEqual(body.facets.genre, { scifi: 4, crime: 2, fantasy: 2 });
    assert.deepEqual(Object.keys(body.facets.genre), ['scifi', 'crime', 'fantasy'], 'by count, ties by value');
    assert.deepEqual(body.facets.tags, { classic: 3, cyberpunk: 2, space: 2, nordic: 1, quest: 1 });
    assert.deepEqual(Object.keys(body.facets.tags), ['classic', 'cyberpunk', 'space', 'nordic', 'quest']);
    assert.deepEqual(body.facets.available, { true: 5, false: 2 });
    assert.deepEqual(Object.keys(body.facets), ['genre', 'tags', 'available'], 'requested fields only');
    assert.equal(body.facet_stats, undefined, 'no numeric values: no facet_stats');
  });

  test('facets follow the query and the filter; repeated, array and duplicate names work', async () => {
    const query = new URLSearchParams([['q', 'cyberspace hacker'], ['facets', 'genre'], ['facets', 'author'], ['facets', 'genre']]);
    const response = await server.request('GET', `/v1/collections/books/search?${query}`);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.facets, { genre: { scifi: 2, crime: 1 }, author: { Gibson: 2, Larsson: 1 } });
    const posted = await postSearch('books', { filter: { genre: 'scifi' }, facets: ['tags', ' available '] });
    assert.deepEqual(posted.facets, { tags: { cyberpunk: 2, space: 2, classic: 1 }, available: { true: 3, false: 1 } });
  });

  test('facet_limit keeps the most frequent values', async () => {
    const body = await getSearch('books', { facets: 'genre,tags', facet_limit: 2 });
    assert.deepEqual(body.facets.genre, { scifi: 4, crime: 2 });
    assert.deepEqual(body.facets.tags, { classic: 3, cyberpunk: 2 });
    assert.deepEqual((await getSearch('books', { facets: 'genre', facet_limit: 1 })).facets.genre, { scifi: 4 });
  });

  test('a requested field without values is {}; facet_stats only when a field has numbers', async () => {
    const body = await getSearch('books', { facets: 'nothing,genre', filter: JSON.stringify({ genre: 'nope' }) });
    assert.equal(body.total, 0);
    assert.deepEqual(body.facets, { nothing: {}, genre: {} });
    assert.equal(body.facet_stats, undefined);
    assert.equal('facet_stats' in (await getSearch('books', { facets: 'genre' })), false);
    assert.equal('facet_stats' in (await getSearch('books', {})), false);
  });

  test('facet_stats give min and max of numeric facet fields among the matches', async () => {
    const all = await getSearch('books', { facets: 'year,rating,genre' });
    assert.deepEqual(all.facet_stats, { year: { min: 1937, max: 2013 }, rating: { min: 3.9, max: 4.7 } });
    const scifi = await postSearch('books', { filter: { genre: 'scifi' }, facets: 'year,rating' });
    assert.deepEqual(scifi.facet_stats, { year: { min: 1965, max: 2013 }, rating: { min: 4, max: 4.5 } });
    // Numeric values also count as facet values; JSON objects list integer-like keys first.
    assert.equal(scifi.facets.year['1965'], 1);
    assert.equal(Object.keys(scifi.facets.year).length, 4);
  });

  test('a number and a string that print alike share one facet entry', async () => {
    const body = await getSearch('books', { facets: 'code' });
    assert.deepEqual(body.facets.code, { 1: 2 });
    assert.deepEqual(body.facet_stats, { code: { min: 1, max: 1 } });
  });

  test('facets across several segments count only current versions of live documents', async () => {
    const colors = ['red', 'green', 'blue', 'red', 'red', 'green'];
    const model = new Map<string, Metadata>();
    const write = async (docs: { id: string; metadata: Metadata }[], refresh = '?refresh=wait_for') => {
      const response = await server.request('POST', `/v1/collections/shelf/documents${refresh}`, docs.map((doc) => ({ ...doc, text: 'item' })));
      assert.equal(response.status, 200, response.text);
      for (const doc of docs) model.set(doc.id, doc.metadata);
    };
    const batch = (from: number, to: number, shift = 0) =>
      Array.from({ length: to - from }, (_, i) => {
        const n = from + i;
        return { id: `i${String(n).padStart(3, '0')}`, metadata: { color: colors[(n + shift) % colors.length], size: (n % 7) + 1, n: n % 4 } };
      });
    await write(batch(0, 40));
    await write(batch(40, 80));
    await write(batch(20, 50, 1)); // replaces documents of both earlier segments with other colors
    const deleted = await server.request('POST', '/v1/collections/shelf/documents/delete?refresh=wait_for', { filter: { size: 3 } });
    assert.equal(deleted.status, 200, deleted.text);
    let expectedDeleted = 0;
    for (const [id, metadata] of model) if (metadata.size === 3) (model.delete(id), expectedDeleted++);
    assert.equal(deleted.body.deleted, expectedDeleted);
    for (const id of ['i001', 'i045']) {
      assert.equal((await server.request('DELETE', `/v1/collections/shelf/documents/${id}?refresh=wait_for`)).status, 204);
      model.delete(id);
    }
    const info = await server.request('GET', '/v1/collections/shelf');
    assert.equal(info.body.documents, model.size);
    assert.ok(info.body.segments >= 2, `expected several segments, got ${info.body.segments}`);

    const count = (field: string, keep: (metadata: Metadata) => boolean = () => true) => {
      const counts = new Map<string, number>();
      for (const metadata of model.values()) {
        if (!keep(metadata)) continue;
        const key = String(metadata[field]);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return counts;
    };
    const body = await getSearch('shelf', { facets: 'color,size,n', limit: 1 });
    assert.equal(body.total, model.size);
    for (const field of ['color', 'size', 'n']) {
      const expected = count(field);
      assert.deepEqual(new Map(Object.entries(body.facets[field])), expected, field);
    }
    // Ordered by count (string keys keep the server's order).
    const colorCounts = Object.values(body.facets.color) as number[];
    assert.deepEqual(colorCounts, [...colorCounts].sort((a, b) => b - a));
    const sizes = [...model.values()].map((metadata) => metadata.size as number);
    assert.deepEqual(body.facet_stats.size, { min: Math.min(...sizes), max: Math.max(...sizes) });
    assert.equal(body.facet_stats.size.min, 1);
    assert.ok(!('3' in body.facets.size), 'deleted value is gone');

    const red = await getSearch('shelf', { facets: 'size', filter: JSON.stringify({ color: 'red' }) });
    assert.deepEqual(new Map(Object.entries(red.facets.size)), count('size', (metadata) => metadata.color === 'red'));
  });

  test('a PATCH of metadata is seen by filters on the new value', async () => {
    const put = await server.request('PUT', '/v1/collections/patched/documents/p1?refresh=wait_for', { text: 'patchable', metadata: { status: 'draft', score: 1 } });
    assert.equal(put.status, 200);
    const patch = await server.request('PATCH', '/v1/collections/patched/documents/p1?refresh=wait_for', { metadata: { status: 'published', score: null } });
    assert.equal(patch.status, 200, patch.text);
    const ids = async (filter: unknown) =>
      (await postSearch('patched', { filter })).hits.map((hit: { id: string }) => hit.id);
    assert.deepEqual(await ids({ status: 'published' }), ['p1']);
    assert.deepEqual(await ids({ status: 'draft' }), []);
    assert.deepEqual(await ids({ score: 1 }), [], 'a removed field no longer matches');
    assert.deepEqual(await ids({ $not: { score: { gte: 0 } } }), ['p1']);
    const facets = await postSearch('patched', { facets: ['status'] });
    assert.deepEqual(facets.facets, { status: { published: 1 } });
  });
});
