// Errors raised by the storage layer, each with a stable `code`. A CorruptFileError always
// names the damaged file so an operator can find it; the server never serves such a file.

export class StorageError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'StorageError';
    this.code = code;
  }
}

/** A file on disk failed a structural or checksum check. */
export class CorruptFileError extends StorageError {
  readonly path: string;
  readonly reason: string;

  constructor(path: string, reason: string) {
    super('corrupt_file', `corrupt file ${path}: ${reason}`);
    this.name = 'CorruptFileError';
    this.path = path;
    this.reason = reason;
  }
}
