// POST /v1/snapshots (docs/api.md, "Snapshots and restore", admin): a consistent online copy of the data directory as a tar
// stream (data-dir/data-snapshot.ts). `folio snapshot` saves it; `folio restore` starts from it.

import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { problemResponses } from '../../../api/index.ts';

const snapshotRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/snapshots',
    {
      schema: {
        summary: 'Take a snapshot of the data directory',
        description: 'Streams a tar (admins not limited to some collections only) of every available collection (each as it stands at the call: every write acknowledged before it is in the copy), '
          + 'the API keys, sessions and webhooks (hashed secrets as stored) and the master key file if the server has one. '
          + '`SNAPSHOT.json` comes first and lists what the archive holds. The server serves and writes on meanwhile. '
          + "Restore with `folio restore FILE --data NEW_DIR`. The body is ignored.",
        tags: ['meta'],
        response: {
          200: { description: 'The snapshot, a POSIX tar', content: { 'application/x-tar': { schema: { type: 'string', format: 'binary' } } } },
          ...problemResponses(401, 403, 500),
        },
      },
    },
    async (_request, reply) => {
      const chunks = app.snapshots.take();
      const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
      // A stream, not a schema-shaped value: sent as it is.
      return (reply as FastifyReply)
        .type('application/x-tar')
        .header('content-disposition', `attachment; filename="folio-snapshot-${stamp}.tar"`)
        .send(Readable.from(chunks));
    },
  );
};

export default snapshotRoutes;
