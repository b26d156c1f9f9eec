// The ingest pool's worker entry (Piscina): parses and checks one batch body (NDJSON or a JSON
// array) and answers with its documents' ids, sizes and byte spans — not the documents: they
// stay bytes until an index thread builds them.

import { Settings } from 'typebox/system';
import { MAX_RAW_VALIDATION_ERRORS } from '../api/index.ts';
import { parseBatchBody } from '../ingest/index.ts';
import { replyOf } from './worker-protocol.ts';
import type { IngestTask, ParsedBody, WorkerReply } from './worker-protocol.ts';

// The same bound on the errors gathered for one invalid document as the server's request validator.
Settings.Set({ maxErrors: MAX_RAW_VALIDATION_ERRORS });

export default function ingest(task: IngestTask): WorkerReply<ParsedBody> {
  return replyOf(() => {
    const { ids, sizes, spans } = parseBatchBody(task.bytes, task.format, task.rules);
    return { ids, sizes, spans };
  });
}
