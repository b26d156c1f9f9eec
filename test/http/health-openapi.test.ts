// GET /v1/health and GET /v1/openapi.json (docs/api.md, "Health and OpenAPI"): both open without a credential; the
// OpenAPI document is 3.1, passes a standard validator, and describes every route of the
// running app (read from Fastify's route tree, so a new route is checked without editing this
// file) with its error responses as problem+json, and nothing that is not a route.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyInstance } from 'fastify';
import { ROUTE_ACCESS } from '../../server/auth/access-table.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

/** Methods Fastify adds by itself (HEAD beside every GET), which the document leaves out. */
const IMPLIED_METHODS = new Set(['HEAD', 'OPTIONS']);
/** The operations of an OpenAPI path item (its other keys are parameters, summary, …). */
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** The routes open without a credential (every other one needs an access rule, see the auth plugin). */
const PUBLIC_ROUTES = ['GET /v1/health', 'GET /v1/openapi.json', 'POST /v1/sessions'];
/** The dashboard's page, stylesheet and modules (a route each): public, and not part of the API's description. */
const isDashboardRoute = (name: string): boolean => !name.includes(' /v1/');
/** One line of `printRoutes({ commonPrefix: false })`: tree drawing, path segment, methods. */
const ROUTE_LINE = /^((?:│ {3}| {4})*)[├└]── (\S+) \(([A-Z, ]+)\)$/;

interface Route {
  /** Upper case, as in the access table. */
  method: string;
  /** Fastify's pattern (`/v1/collections/:name`). */
  url: string;
}

/**
 * Every route the app serves, read from Fastify's route tree: with `commonPrefix: false` each
 * line is one node with routes, its path segment appended to its parent's.
 */
function appRoutes(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    if (line === '') continue;
    const match = ROUTE_LINE.exec(line);
    assert.ok(match, `unexpected printRoutes line: ${JSON.stringify(line)}`);
    const [, indent, segment, methods] = match;
    const depth = indent.length / 4;
    assert.ok(depth <= parents.length, `printRoutes line deeper than its parent: ${line}`);
    parents.length = depth;
    const url = parents.join('') + segment;
    parents.push(segment);
    for (const method of methods.split(', ')) {
      if (IMPLIED_METHODS.has(method)) continue;
      assert.ok(app.hasRoute({ method, url }), `read ${method} ${url} from printRoutes, which is no route`);
      routes.push({ method, url });
    }
  }
  return routes;
}

/** The OpenAPI path of a Fastify pattern (`:name` → `{name}`). */
function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

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

  test('the app\'s routes are the access table\'s and the public ones, no more and no fewer', () => {
    const routes = appRoutes(server.app).map(({ method, url }) => `${method} ${url}`);
    assert.ok(routes.includes('GET /v1/collections/:name/documents/:id/file'), 'nested routes are read whole');
    const dashboard = routes.filter(isDashboardRoute);
    for (const route of ['GET /', 'GET /app.css', 'GET /favicon.svg', 'GET /assets/web/src/main.js', 'GET /assets/web/src/pages/search.js', 'GET /assets/format/index.js']) assert.ok(dashboard.includes(route), `no ${route}`);
    assert.deepEqual(routes.filter((route) => !isDashboardRoute(route)).sort(), [...Object.keys(ROUTE_ACCESS), ...PUBLIC_ROUTES].sort());
  });

  test('the document lists every route of the app, with its error responses as problem+json', async () => {
    const { body: document } = await server.request('GET', '/v1/openapi.json');
    const routes = appRoutes(server.app);
    const listed = new Set<string>();
    for (const { method, url } of routes) {
      const name = `${method} ${url}`;
      if (isDashboardRoute(name)) continue;
      const path = openApiPath(url);
      listed.add(`${method.toLowerCase()} ${path}`);
      const operation = document.paths[path]?.[method.toLowerCase()];
      assert.ok(operation, `the document lacks ${name}`);
      const statuses = Object.keys(operation.responses);
      assert.ok(statuses.some((status) => status.startsWith('2')), `${name} has no success response`);
      assert.ok(statuses.includes('500'), `${name} does not declare 500`);
      if (PUBLIC_ROUTES.includes(name)) {
        assert.deepEqual(operation.security, [], `${name} should need no credential`);
      } else {
        assert.notDeepEqual(operation.security, [], `${name} needs a credential`);
        assert.ok(statuses.includes('401'), `${name} does not declare 401`);
      }
      for (const status of statuses.filter((status) => Number(status) >= 400)) {
        assert.ok(operation.responses[status].content?.['application/problem+json'], `${name} ${status} is not problem+json`);
      }
    }
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).filter((key) => HTTP_METHODS.has(key)).map((method) => `${method} ${path}`),
    );
    assert.deepEqual(documented.filter((operation) => !listed.has(operation)), [], 'documented operations that are no route');
  });

  test('shared schemas are named components', async () => {
    const { body: document } = await server.request('GET', '/v1/openapi.json');
    for (const name of ['Problem', 'Collection', 'DocumentSummary', 'StoredDocument', 'SearchHit', 'SearchResponse']) {
      assert.ok(document.components.schemas[name], `components.schemas lacks ${name}`);
    }
    const getDocument = document.paths['/v1/collections/{name}/documents/{id}'].get;
    assert.deepEqual(getDocument.responses['404'].content['application/problem+json'].schema, { $ref: '#/components/schemas/Problem' });
  });

  test('the upload describes its multipart body: the file as binary, id, title, metadata and ocr_languages as text', async () => {
    const { body: document } = await server.request('GET', '/v1/openapi.json');
    const body = document.paths['/v1/collections/{name}/files'].post.requestBody;
    assert.deepEqual(body.content['multipart/form-data'].schema, { $ref: '#/components/schemas/UploadFileBody' });
    const schema = document.components.schemas.UploadFileBody;
    assert.deepEqual(schema.required, ['file']);
    assert.equal(schema.properties.file.format, 'binary');
    assert.deepEqual(Object.keys(schema.properties).sort(), ['file', 'id', 'metadata', 'ocr_languages', 'title']);
  });

  test('the search response and hit schemas name every documented field', async () => {
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
