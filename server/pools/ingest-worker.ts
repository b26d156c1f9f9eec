// The ingest pool's worker entry (Piscina): parses and checks one batch body and answers with
// its documents' ids, sizes and byte spans — not the documents: they stay bytes until an index
// thread builds them.

import { parseBatchBody } from '../ingest/index.ts';
import { replyOf } from './worker-protocol.ts';
import type { IngestTask, ParsedBody, WorkerReply } from './worker-protocol.ts';

export default function ingest(task: IngestTask): WorkerReply<ParsedBody> {
  return replyOf(() => {
    const { ids, sizes, spans } = parseBatchBody(task.bytes, task.format);
    return { ids, sizes, spans };
  });
}
