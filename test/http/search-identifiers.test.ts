// Identifiers over real HTTP (issue 14, point 5): a word joined by `_ . / @ ::` matches as a
// whole — its parts adjacent, or written together — never as a bag of its parts, so a German
// text with the article "der" no longer answers `asn1_der_decoding`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

describe('search: identifiers match as a whole', () => {
  let server: TestServer;

  async function ids(q: string): Promise<string[]> {
    const response = await server.request('GET', `/v1/collections/code/search?${new URLSearchParams({ q })}`);
    assert.equal(response.status, 200, response.text);
    return response.body.hits.map((hit: { id: string }) => hit.id);
  }

  before(async () => {
    server = await startTestServer();
    assert.equal((await server.request('POST', '/v1/collections', { name: 'code' })).status, 201);
    const docs = [
      { id: 'libtasn1', text: 'Call asn1_der_decoding() to decode a DER buffer into a structure.' },
      { id: 'joined', text: 'The function asn1derdecoding is the old name.' },
      { id: 'german', text: 'Der Hund und der Decoder: decoding von asn1 Daten, der Rest.' },
      { id: 'node', text: 'Install Node.js 20 or later.' },
      { id: 'nodejs', text: 'The nodejs package from Debian.' },
      { id: 'apart', text: 'A node in the tree; js files elsewhere.' },
      { id: 'version', text: 'Fixed in v1.2.3, released in May.' },
      { id: 'other-version', text: 'Version 3 of v1, then 2 more.' },
    ];
    assert.equal((await server.request('POST', '/v1/collections/code/documents?refresh=wait_for', docs)).status, 200);
  });
  after(() => server.close());

  test('asn1_der_decoding finds the identifier and its joined form, not a text with its parts apart', async () => {
    assert.deepEqual((await ids('asn1_der_decoding')).sort(), ['joined', 'libtasn1']);
  });

  test('node.js and v1.2.3 match as a whole', async () => {
    assert.deepEqual((await ids('node.js')).sort(), ['node', 'nodejs']);
    assert.deepEqual(await ids('v1.2.3'), ['version']);
  });

  test('a hyphenated word still matches its parts (e-mail, IL-6), as before', async () => {
    assert.deepEqual((await ids('der-hund')).sort(), ['german', 'libtasn1']);
  });
});
