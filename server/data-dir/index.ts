// The data directory as a whole, without a server running: consistent snapshots of it as tar
// streams (`POST /v1/snapshots`, `folio snapshot`), restoring one into a new directory (`folio
// restore`), and the pid file that says a live server uses it. `folio restore` and `folio
// check` come here without loading the HTTP room.

export { DataSnapshots, SNAPSHOT_FORMAT, SNAPSHOT_MANIFEST } from './data-snapshot.ts';
export type { SnapshotInfo } from './data-snapshot.ts';
export { RestoreError, restoreSnapshot } from './data-restore.ts';
export type { RestoreOutcome } from './data-restore.ts';
export { removeServerPid, runningServerPid, writeServerPid } from './server-pid-file.ts';
