// GET /v1/health and GET /v1/openapi.json (SPEC §9): both open without a credential; the
// OpenAPI document is 3.1, passes a standard validator, and describes every route with its
// error responses as problem+json.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

/** Every route of this issue, as [method, OpenAPI path]. */
const ROUTES: [string, string][] = [
  ['get', '/v1/health'],
  ['get', '/v1/openapi.json'],
  ['post', '/v1/collections'],
  ['get', '/v1/collections'],
  ['get', '/v1/collections/{name}'],
  ['delete', '/v1/collections/{name}'],
  ['put', '/v1/collections/{name}/documents/{id}'],
  ['get', '/v1/collections/{name}/documents/{id}'],
  ['patch', '/v1/collections/{name}/documents/{id}'],
  ['delete', '/v1/collections/{name}/documents/{id}'],
  ['post', '/v1/collections/{name}/documents'],
  ['post', '/v1/collections/{name}/documents/delete'],
  ['post', '/v1/collections/{name}/refresh'],
  ['get', '/v1/collections/{name}/search'],
  ['post', '/v1/collections/{name}/search'],
];
const PUBLIC = new Set(['/v1/health', '/v1/openapi.json']);

describe('health and OpenAPI', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('GET /v1/health answers without a credential', async () => {
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    const response = await server.request('GET', '/v1/health', undefined, { authorization: null });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { status: 'ok', version });
  });

  test('GET /v1/openapi.json is an OpenAPI 3.1 document that validates', async () => {
    const response = await server.request('GET', '/v1/openapi.json', undefined, { authorization: null });
    assert.equal(response.status, 200);
    const document = response.body;
    assert.equal(document.openapi, '3.1.0');
    assert.equal(document.components.securitySchemes.bearer.scheme, 'bearer');
    await SwaggerParser.validate(structuredClone(document));
  });

  test('the document lists every route, with its error responses as problem+json', async () => {
    const { body: document } = await server.request('GET', '/v1/openapi.json');
    for (const [method, path] of ROUTES) {
      const operation = document.paths[path]?.[method];
      assert.ok(operation, `missing ${method.toUpperCase()} ${path}`);
      const statuses = Object.keys(operation.responses);
      assert.ok(statuses.some((status) => status.startsWith('2')), `${method} ${path} has no success response`);
      assert.ok(statuses.includes('500'), `${method} ${path} does not declare 500`);
      if (PUBLIC.has(path)) {
        assert.deepEqual(operation.security, [], `${path} should need no credential`);
      } else {
        assert.ok(statuses.includes('401'), `${method} ${path} does not declare 401`);
      }
      for (const status of statuses.filter((status) => Number(status) >= 400)) {
        assert.ok(operation.responses[status].content['application/problem+json'], `${method} ${path} ${status}`);
      }
    }
  });

  test('shared schemas are named components', async () => {
    const { body: document } = await server.request('GET', '/v1/openapi.json');
    for (const name of ['Problem', 'Collection', 'DocumentSummary', 'StoredDocument', 'SearchHit', 'SearchResponse']) {
      assert.ok(document.components.schemas[name], `components.schemas lacks ${name}`);
    }
    const getDocument = document.paths['/v1/collections/{name}/documents/{id}'].get;
    assert.deepEqual(getDocument.responses['404'].content['application/problem+json'].schema, { $ref: '#/components/schemas/Problem' });
  });

  test('the search response and hit schemas name every SPEC field', async () => {
    const { body } = await server.request('GET', '/v1/openapi.json');
    const document = (await SwaggerParser.dereference(structuredClone(body))) as any;
    const search = document.paths['/v1/collections/{name}/search'].get;
    const schema = search.responses['200'].content['application/json'].schema;
    for (const field of ['hits', 'facets', 'facet_stats', 'total', 'offset', 'limit', 'has_more', 'took_ms']) {
      assert.ok(schema.properties[field], `response lacks ${field}`);
    }
    assert.ok(!schema.required.includes('facet_stats'), 'facet_stats is optional');
    const hit = schema.properties.hits.items;
    for (const field of ['id', 'title', 'score', 'format', 'page', 'page_label', 'snippet', 'highlight', 'metadata', 'matched_pages', 'explain']) {
      assert.ok(hit.properties[field], `hit lacks ${field}`);
    }
    const parameters = search.parameters.map((parameter: { name: string }) => parameter.name);
    for (const name of ['q', 'filter', 'facets', 'facet_limit', 'sort', 'offset', 'limit', 'match', 'highlight_tag', 'explain']) {
      assert.ok(parameters.includes(name), `GET search lacks parameter ${name}`);
    }
  });
});
