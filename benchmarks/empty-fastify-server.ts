// The HTTP ceiling for the throughput benchmarks: a Fastify server with one empty route
// (`GET /*` answering `{}`), no logging, on 127.0.0.1 and a free port. Run as a child process
// (benchmarks/gcide.ts starts it) so the load generator and the server do not share a thread;
// it prints "listening on http://…" and exits on SIGTERM or SIGINT.

import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/*', async () => ({}));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`Empty Fastify route listening on ${address}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}
