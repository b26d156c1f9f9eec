// The HTTP API's contract as data: request limits and the TypeBox schema of every request and
// response body, each wire shape declared once (its TypeScript type is `Static<>` of it), and
// how a schema's validation errors become a problem body's field errors. No Fastify here: http/
// serves these schemas, other rooms use the shapes and limits.

export * from './limits.ts';
export * from './problem.ts';
export * from './no-content.ts';
export * from './collection.ts';
export * from './document.ts';
export * from './document-list.ts';
export * from './document-wire.ts';
export * from './document-validation.ts';
export * from './delete-by-filter.ts';
export * from './search.ts';
export * from './multi-search.ts';
export * from './facet-search.ts';
export * from './api-key.ts';
export * from './webhook.ts';
export * from './stats.ts';
export * from './validation-errors.ts';
export { engineHitFields, parseSearchMembers, searchResultMembers } from './search-wire.ts';
