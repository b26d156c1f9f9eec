// The write options every document write takes from its query string (SPEC §5):
// `?refresh=wait_for` (or `true`) answers only once the change is searchable.

import type { WriteOptions } from '../../../indexing/index.ts';

/** The write query parameters (WriteQuerySchema). */
export interface WriteQuery {
  refresh?: 'wait_for' | 'true';
}

export function writeOptions(query: WriteQuery): WriteOptions {
  return { waitForRefresh: query.refresh !== undefined };
}
