// The HTTP face of the server, the only room that knows Fastify: the app with its plugins
// (errors, authentication, OpenAPI), the routes, and the listening server. It wires the other
// rooms together.

export { buildApp } from './app.ts';
export type { BuildAppOptions, LoggerOptions } from './app.ts';
export { startServer } from './start-server.ts';
export type { RunningServer, StartOptions } from './start-server.ts';
