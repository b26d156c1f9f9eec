// Words inside longer compounds over real HTTP (issue 14, point 7): a katakana word finds the
// documents where it stands inside a longer katakana word (パッケージ in パッケージング and
// ソースパッケージ), a hangul word those where a particle is attached (패키지 in 패키지를),
// and a document with the word on its own ranks first.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

interface Hit {
  id: string;
  score: number;
  highlight: string;
}

describe('search: words inside compounds (katakana, hangul)', () => {
  let server: TestServer;

  async function search(q: string, extra: Record<string, string> = {}): Promise<Hit[]> {
    const response = await server.request('GET', `/v1/collections/ja/search?${new URLSearchParams({ q, ...extra })}`);
    assert.equal(response.status, 200, response.text);
    return response.body.hits;
  }

  before(async () => {
    server = await startTestServer();
    assert.equal((await server.request('POST', '/v1/collections', { name: 'ja', language: 'none' })).status, 201);
    const docs = [
      { id: 'word', text: 'パッケージを作る手順。' },
      { id: 'packaging', text: 'パッケージングの手順とパッケージングの規則。' },
      { id: 'source', text: 'ソースパッケージの構築。' },
      { id: 'other', text: 'ライブラリの説明。' },
      { id: 'ko-word', text: '패키지 관리자' },
      { id: 'ko-particle', text: '패키지를 설치합니다' },
    ];
    assert.equal((await server.request('POST', '/v1/collections/ja/documents?refresh=wait_for', docs)).status, 200);
  });
  after(() => server.close());

  test('a katakana word finds the longer words that contain it; the word on its own ranks first', async () => {
    const hits = await search('パッケージ');
    assert.equal(hits[0].id, 'word');
    assert.deepEqual(hits.map((hit) => hit.id).sort(), ['packaging', 'source', 'word']);
    assert.match(hits.find((hit) => hit.id === 'source')!.highlight, /<mark>ソースパッケージ<\/mark>/);
  });

  test('a hangul word finds it with a particle attached', async () => {
    const hits = await search('패키지');
    assert.deepEqual(hits.map((hit) => hit.id), ['ko-word', 'ko-particle']);
  });

  test('an excluded or one-character word does not reach into compounds', async () => {
    assert.deepEqual((await search('手順 -パッケージ')).map((hit) => hit.id).sort(), ['packaging']);
    assert.deepEqual((await search('ソ')).map((hit) => hit.id), []);
  });
});
