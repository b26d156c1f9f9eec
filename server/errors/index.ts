// The server's error type, shared by every room: a FolioError carries a stable error code (docs/api.md, "Errors")
// (docs/api.md, "Errors"); http/ alone turns codes into statuses.

export { FolioError, MAX_LISTED_FIELD_ERRORS } from './folio-error.ts';
export type { ErrorCode, FieldError } from './folio-error.ts';
