import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** Vite's output under this folder has content hashes in its names: a name never changes its bytes. */
export const ASSETS_PREFIX = '/assets/';

/** The built web app's page (index.html), or null when the app has not been built. */
export function readAppHtml(webRoot: string, log: FastifyBaseLogger): string | null {
  const indexFile = path.join(webRoot, 'index.html');
  if (!fs.existsSync(indexFile)) {
    log.warn({ webRoot }, 'the web app is not built (npm run build:web); serving the API only');
    return null;
  }
  return fs.readFileSync(indexFile, 'utf8');
}

/**
 * Serves the built web app: hashed assets cached for a year, other files (index.html) revalidated
 * on every use. The error handler sends index.html for any other page address so the client router
 * can take over. Every HTML answer gets its Content-Security-Policy from the app's onSend hook
 * (ResponseHeaders), whichever route sent it.
 */
export async function registerWebApp(app: FastifyInstance, webRoot: string): Promise<void> {
  const assetsDir = path.join(webRoot, ASSETS_PREFIX, path.sep);
  await app.register(fastifyStatic, {
    root: webRoot,
    index: false,
    wildcard: true,
    // The public pages' template (rendered by the server, never sent as is) and Vite's build manifest.
    allowedPath: (pathName) => pathName !== '/public.html' && !pathName.startsWith('/.vite/'),
    // Off, or @fastify/send's own "public, max-age=0" replaces what setHeaders says.
    cacheControl: false,
    setHeaders(response, filePath) {
      const immutable = filePath.startsWith(assetsDir);
      response.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
