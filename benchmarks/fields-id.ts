// `fields=id` on search (issue 15): hits carry only `id` and `score`. These rows are the
// comparison with the peers, which return ids and match words exactly, so they also turn typo
// tolerance off (`typos=0`; the full-hit rows keep the server's default, `auto`). A server
// that predates `fields` answers 400 to the unknown parameter, so the benchmarks ask once
// before timing it and print FIELDS_ID_UNSUPPORTED instead of failing.

import type { KeepAliveClient } from './keep-alive-client.ts';

export const FIELDS_ID_UNSUPPORTED = 'fields=id not supported by this server';

export function withFieldsId(path: string): string {
  return `${path}&fields=id&typos=0`;
}

/** Sends one `fields=id` search: true on 200, false on 400; any other answer throws. */
export async function supportsFieldsId(client: KeepAliveClient, searchPath: string): Promise<boolean> {
  const path = withFieldsId(searchPath);
  const { status } = await client.request(path);
  if (status === 400) return false;
  if (status !== 200) throw new Error(`GET ${path} → ${status}`);
  return true;
}
