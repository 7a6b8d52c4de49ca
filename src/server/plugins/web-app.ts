import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/**
 * Serves the built web app: hashed assets cached for a year, and index.html (never cached)
 * for any other page address so the client router can take over. Returns that page, or
 * null when the app has not been built.
 */
export async function registerWebApp(app: FastifyInstance, webRoot: string): Promise<string | null> {
  const indexFile = path.join(webRoot, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ webRoot }, 'the web app is not built (npm run build:web); serving the API only');
    return null;
  }
  await app.register(fastifyStatic, {
    root: webRoot,
    index: false,
    wildcard: true,
    // The public pages' template (rendered by the server, never sent as is) and Vite's build manifest.
    allowedPath: (pathName) => pathName !== '/public.html' && !pathName.startsWith('/.vite/'),
    setHeaders(response, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      response.setHeader(
        'cache-control',
        immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
    },
  });
  return fs.readFileSync(indexFile, 'utf8');
}
