// How a collection in cluster mode reaches the rest of the cluster. The cluster room implements
// it; a collection without one (the default, single-process mode) logs to its own WAL.
//  - Every node's writes go to the shared write log (PostgreSQL) and are acknowledged once it
//    has committed them; none touches the local pending buffer.
//  - The writer (the node holding the collection's lease) applies the log to its local
//    collection (`applyLogged`), refreshes and merges as usual, and is told of every new
//    snapshot so it publishes it.
//  - A replica never builds or embeds: it installs the manifests the writer publishes.

import type { StoredSettings } from '../settings/index.ts';

export type ClusterRole = 'writer' | 'replica';

export interface ClusterLink {
  readonly role: ClusterRole;
  /** Appends one encoded write to the shared log; resolves with its sequence number once committed. */
  append(record: Uint8Array): Promise<number>;
  /** Resolves once this node searches a snapshot holding the write `seq` (`refresh=true`). */
  waitVisible(seq: number): Promise<void>;
  /** Resolves once this node searches every write acknowledged so far (`POST …/refresh`). */
  refresh(): Promise<void>;
  /** A new local snapshot was installed (the writer publishes it). */
  snapshotInstalled(): void;
  /** The collection's settings changed here; resolves once every node will see them. */
  settingsChanged(settings: StoredSettings): Promise<void>;
}
