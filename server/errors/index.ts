// The server's error type, shared by every room: a FolioError carries a stable SPEC code
// (SPEC §3); http/ alone turns codes into statuses.

export { FolioError } from './folio-error.ts';
export type { ErrorCode, FieldError } from './folio-error.ts';
