// Cluster mode (`folio serve --cluster postgres://… --object-store s3://…`): stateless search
// replicas over object storage, shared state in PostgreSQL, one writer per collection chosen
// by a lease with a fencing token. The HTTP room builds a ClusterNode when the flags are given;
// single-process mode never loads this room's dependencies' connections.

export { ClusterNode } from './cluster-node.ts';
export type { ClusterNodeRole, ClusterOptions } from './cluster-node.ts';
export { ObjectStore, parseObjectStoreUrl } from './object-store.ts';
