// Collections and their write path: the registry, each collection's WAL, pending buffer,
// background refresh, merges and commits, and the snapshots searches run on. The only server
// room that touches storage's write path (WAL, manifest, deletes bitmaps).

export { openCollectionRegistry } from './collection-registry.ts';
export type { Collection, CollectionFacts, CollectionRegistry, ReindexCounts, WriteOptions } from './collection-types.ts';
export type { DocumentChange } from './document-model.ts';
export type { CollectionWorkers } from './collection.ts';
export type { SemanticParams } from './semantic-query.ts';
export type { Backpressure } from './collection-writer.ts';
export type { DamagedCollection } from './damaged-collections.ts';
export { appendRecoveredDocuments, checkCollection, checkDataDir, repairCollection } from './collection-check.ts';
export { linkOrCopy } from './collection-snapshot.ts';
export type { CollectionCheck, FileProblem, RepairOutcome } from './collection-check.ts';
export type { LocalCollectionRegistry } from './collection-registry.ts';
export type { ClusterLink, ClusterRole } from './cluster-link.ts';
export { asClusterCollection } from './cluster-collection.ts';
export type { ClusterCollection } from './cluster-collection.ts';
export { WAL_DIR_NAME, segmentFiles } from './collection-layout.ts';
export type { StoredSettings } from '../settings/index.ts';
export { parseBoosts } from '../settings/index.ts';
export { parseSearchFields } from '../settings/index.ts';
