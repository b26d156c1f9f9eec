// The write options every document and file write takes from its query string (docs/api.md, "Files"):
// `?refresh=wait_for` answers only once the change is searchable (after the next scheduled
// refresh); `?refresh=true` starts that refresh at once, as Elasticsearch's does.

import type { Static } from 'typebox';
import type { WriteQuerySchema } from '../../api/index.ts';
import type { WriteOptions } from '../../indexing/index.ts';

export function writeOptions(query: Static<typeof WriteQuerySchema>): WriteOptions {
  return { waitForRefresh: query.refresh !== undefined, refreshNow: query.refresh === 'true' };
}
