// A collection's search as the engine's SearchResult, for tests that look at hits without a
// server: the JSON the search wrote (api/search-wire.ts) read back, camelCase again.

import type { SearchRequest, SearchResult } from '../../engine/index.ts';
import { parseSearchMembers } from '../../server/api/index.ts';

/** Anything that answers a search page (a collection). */
interface Searchable {
  searchPage(request: SearchRequest): Promise<{ members: string }>;
}

export async function searchResult(collection: Searchable, request: SearchRequest): Promise<SearchResult> {
  return parseSearchMembers((await collection.searchPage(request)).members);
}
