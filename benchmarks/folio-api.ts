// The benchmarks' way to talk to the Folio server they start: one master key for every run
// (the server gets it as FOLIO_MASTER_KEY), the header that carries it, and a small JSON
// caller that throws on any answer other than 2xx.

export const BENCH_MASTER_KEY = 'folio_' + 'b'.repeat(40);
/** The header every request to the benchmark's server carries (the empty route gets it too). */
export const AUTH_HEADERS: Readonly<Record<string, string>> = Object.freeze({ authorization: `Bearer ${BENCH_MASTER_KEY}` });

export type FolioCall = (method: string, path: string, body?: string, contentType?: string) => Promise<any>;

/** A caller for `baseUrl`: sends `body` with the master key and resolves with the JSON answer. */
export function folioCaller(baseUrl: string): FolioCall {
  return async (method, path, body, contentType = 'application/json') => {
    const response = await fetch(baseUrl + path, { method, headers: { ...AUTH_HEADERS, 'content-type': contentType }, body });
    const json = await response.json().catch(() => null);
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
}
