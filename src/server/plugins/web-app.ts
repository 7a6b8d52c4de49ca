import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { NotFoundError } from '../errors.js';

/** Vite's output under this folder has content hashes in its names: a name never changes its bytes. */
export const ASSETS_PREFIX = '/assets/';

/** The compressed copies the build writes beside each larger file (vite.config.ts), sent as that file's encoding. */
const COMPRESSED_COPY = /\.(br|gz)$/;

export interface WebAppOptions {
  /** Serve the build's source maps (SERVE_SOURCE_MAPS): they show the app's whole source. */
  serveSourceMaps: boolean;
}

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
 * The file an address names, as the file system will read it (relative to the web root): decoded
 * once, with duplicate slashes collapsed and dot segments resolved, so that every spelling of a file
 * is checked as that file. Null when the address cannot name a file.
 */
export function requestedFile(url: string): string | null {
  const query = url.indexOf('?');
  let decoded: string;
  try {
    decoded = decodeURIComponent(query === -1 ? url : url.slice(0, query));
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  // A leading ".." cannot climb above "/": the result always stays inside the root.
  return path.posix.normalize(`/${decoded}`);
}

/** Whether the web app serves this (normalised) file; compared without case, as some file systems do. */
function isServed(file: string, { serveSourceMaps }: WebAppOptions): boolean {
  const name = file.toLowerCase();
  // The public pages' template (rendered by the server, never sent as is), and dot folders and files
  // such as Vite's build manifest (.vite/manifest.json).
  if (name === '/public.html' || name.includes('/.')) return false;
  if (COMPRESSED_COPY.test(name)) return false;
  return serveSourceMaps || !name.endsWith('.map');
}

/** Whether the build wrote compressed copies: without them every file goes out uncompressed. */
function hasCompressedCopies(assetsDir: string): boolean {
  try {
    return fs.readdirSync(assetsDir).some((name) => COMPRESSED_COPY.test(name));
  } catch {
    return false;
  }
}

/**
 * Serves the built web app: hashed assets cached for a year, other files (index.html, the service
 * worker sw.js, the manifest) revalidated on every use, so that a new build reaches the next visit.
 * Files are sent as the build compressed them (their .br and .gz copies), never compressed again per
 * request. The error handler sends index.html for any other page address so
 * the client router can take over. Every HTML answer gets its Content-Security-Policy from the app's
 * onSend hook (ResponseHeaders), whichever route sent it.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webRoot: string,
  options: WebAppOptions,
): Promise<void> {
  const assetsDir = path.join(webRoot, ASSETS_PREFIX, path.sep);
  if (!hasCompressedCopies(assetsDir)) {
    app.log.warn(
      { webRoot },
      'the web app was built without compressed files (.br, .gz): its files are sent uncompressed; run npm run build:web',
    );
  }
  // Only reply.sendFile: the route below decides which files are served, on the normalised path.
  await app.register(fastifyStatic, {
    root: webRoot,
    serve: false,
    index: false,
    preCompressed: true,
    // Off, or @fastify/send's own "public, max-age=0" replaces what setHeaders says.
    cacheControl: false,
    setHeaders(response, filePath) {
      const immutable = filePath.startsWith(assetsDir);
      response.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      // The same address answers a compressed copy or the plain file by Accept-Encoding: caches keep them apart.
      response.setHeader('vary', 'accept-encoding');
    },
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    schema: { hide: true },
    // The copies are the compression; a file without one is too small to gain from it.
    compress: false,
    handler(request, reply) {
      const file = requestedFile(request.url);
      if (file === null) return reply.callNotFound();
      if (!isServed(file, options)) {
        // A 404 in every spelling: the error handler would send the app's page for a missing page.
        throw new NotFoundError(`Not found: ${request.method} ${request.url.split('?')[0]}`);
      }
      return reply.sendFile(file);
    },
    errorHandler(error, request, reply) {
      // A visitor who leaves while a file streams is not the server's failure.
      if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') {
        request.raw.destroy();
        return;
      }
      return app.errorHandler(error, request, reply);
    },
  });
}
