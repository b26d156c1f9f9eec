// The shared write log: every acknowledged write of a collection, in PostgreSQL, committed
// before the client gets its answer, so losing any node loses nothing. Appends take the
// collection row's lock to draw the next sequence number, so numbers are gapless and commit in
// order: a reader that has seen seq n has seen everything before it. The writer reads the log
// from the seq its last published manifest covers and trims what a published manifest holds.

import { FolioError } from '../errors/index.ts';
import type { ClusterDatabase } from './cluster-database.ts';

export const LOG_CHANNEL = 'folio_log';

export interface LoggedWrite {
  seq: number;
  record: Uint8Array;
}

export class SharedWriteLog {
  constructor(private readonly db: ClusterDatabase) {}

  /** Appends one record; resolves with its sequence number once PostgreSQL has committed it. */
  async append(collection: string, record: Uint8Array): Promise<number> {
    const { rows } = await this.db.query<{ seq: string }>(
      `WITH head AS (UPDATE folio_collections SET log_head = log_head + 1 WHERE name = $1 RETURNING log_head),
            logged AS (INSERT INTO folio_write_log (collection, seq, record) SELECT $1, log_head, $2 FROM head RETURNING seq)
       SELECT seq, pg_notify($3, $1) FROM logged`,
      [collection, Buffer.from(record.buffer, record.byteOffset, record.byteLength), LOG_CHANNEL],
    );
    if (rows.length === 0) throw new FolioError('collection_not_found', `collection '${collection}' does not exist`);
    return Number(rows[0]!.seq);
  }

  /** Writes after `afterSeq`, in order: at most `maxRecords`, and stopping once `maxBytes` is passed. */
  async read(collection: string, afterSeq: number, maxRecords: number, maxBytes: number): Promise<LoggedWrite[]> {
    const { rows } = await this.db.query<{ seq: string; record: Buffer }>(
      `SELECT seq, record FROM folio_write_log WHERE collection = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [collection, afterSeq, maxRecords],
    );
    const writes: LoggedWrite[] = [];
    let bytes = 0;
    for (const row of rows) {
      if (writes.length > 0 && bytes + row.record.length > maxBytes) break;
      bytes += row.record.length;
      writes.push({ seq: Number(row.seq), record: row.record });
    }
    return writes;
  }

  /** The last sequence number drawn for `collection` (0 when nothing was written). */
  async head(collection: string): Promise<number> {
    const { rows } = await this.db.query<{ log_head: string }>('SELECT log_head FROM folio_collections WHERE name = $1', [collection]);
    return rows.length === 0 ? 0 : Number(rows[0]!.log_head);
  }

  /** Drops the writes a published manifest holds. */
  async trim(collection: string, throughSeq: number): Promise<void> {
    await this.db.query('DELETE FROM folio_write_log WHERE collection = $1 AND seq <= $2', [collection, throughSeq]);
  }
}
