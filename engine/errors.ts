// Errors the engine raises, each with a stable code. The server maps codes to HTTP statuses
// in one place (server/http/plugins/error-handler.ts); the engine knows nothing of HTTP.

export type EngineErrorCode = 'invalid_query' | 'invalid_language' | 'invalid_filter' | 'invalid_sort';

export class EngineError extends Error {
  readonly code: EngineErrorCode;

  constructor(code: EngineErrorCode, message: string) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
  }
}
