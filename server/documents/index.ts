// What clients do to collections and documents, one call each: the change through the index
// (server/indexing), what it does to kept originals (server/files), and its webhook event
// (server/webhooks). The HTTP routes call these and nothing else for those resources.

export { CollectionService } from './collection-service.ts';
export { DocumentService } from './document-service.ts';
export type { DocumentServiceOptions, ListRequest, ListedField } from './document-service.ts';
export { buildJsonDocuments } from './json-documents.ts';
