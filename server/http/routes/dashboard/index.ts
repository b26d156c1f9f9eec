// The web dashboard (docs/architecture.md, "web/ — the dashboard"), served by the same server at `/`: the page, its
// stylesheet (`/app.css`), its icon (`/favicon.svg`) and its modules (`/assets/…js`) from dist/web (built by `npm
// install` / `npm run build`), read once at start into memory with one route each, so a
// request can only name a file that is there (no path from the URL ever reaches the disk). Everything the dashboard does goes through the HTTP API with
// the user's token, so these routes need no credential. A strict Content-Security-Policy
// allows only the server's own scripts and styles: no inline script, no other origin.

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface Asset {
  bytes: Buffer;
  type: string;
}

/** The project's dist/web, found from this module (in the sources or in dist/). */
function dashboardDir(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) {
      const built = join(dir, 'dist', 'web');
      return existsSync(join(built, 'index.html')) ? built : null;
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Every servable file of the dashboard: `index.html`, `app.css`, `favicon.svg` and the modules, by URL path. */
function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (CONTENT_TYPES[extname(name)] !== undefined) {
        const rel = relative(dir, path).split('\\').join('/');
        const url = extname(name) === '.js' ? `/assets/${rel}` : `/${rel}`;
        assets.set(url, { bytes: readFileSync(path), type: CONTENT_TYPES[extname(name)] });
      }
    }
  };
  walk(dir);
  return assets;
}

function send(reply: FastifyReply, asset: Asset): FastifyReply {
  return reply
    .header('content-security-policy', DASHBOARD_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-cache')
    .type(asset.type)
    .send(asset.bytes);
}

const dashboardRoutes: FastifyPluginAsync = async (app) => {
  const dir = dashboardDir();
  const assets = dir === null ? new Map<string, Asset>() : loadAssets(dir);
  const missing = (reply: FastifyReply): FastifyReply =>
    reply.code(503).type('text/plain; charset=utf-8').send("The dashboard is not built: run 'npm run build' in the Folio checkout.\n");
  const options = { config: { public: true }, schema: { hide: true } };

  app.get('/', options, async (_request, reply) => {
    const page = assets.get('/index.html');
    return page === undefined ? missing(reply) : send(reply, page);
  });
  // One route per file: a URL names one of them or nothing.
  for (const [url, asset] of assets) if (url !== '/index.html') app.get(url, options, async (_request, reply) => send(reply, asset));
};

export default dashboardRoutes;
