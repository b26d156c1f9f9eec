// The write options every document write takes from its query string (SPEC §5):
// `?refresh=wait_for` (or `true`) answers only once the change is searchable.

import type { WriteOptions } from '../../services/collection-types.ts';

export function writeOptions(query: { refresh?: 'wait_for' | 'true' }): WriteOptions {
  return { waitForRefresh: query.refresh !== undefined };
}
