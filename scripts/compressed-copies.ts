/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside each compressible file of a build, so that the
 * server sends the copy a browser accepts (@fastify/static's preCompressed) instead of compressing
 * the same bytes again for every request. Run by the web build (the plugin in vite.config.ts), at
 * each format's best level: that is paid once per build, never in a visitor's time.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this size a copy saves too little to be worth a file (as @fastify/compress's threshold). */
export const COPY_THRESHOLD_BYTES = 1024;

/** Text the server sends (source maps too, when SERVE_SOURCE_MAPS asks); images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|map|txt|xml|webmanifest)$/;

/** Files the server never sends: the public pages' template, and dot folders (Vite's manifest). */
function isNeverSent(relative: string): boolean {
  return relative === 'public.html' || relative.split(path.sep).some((part) => part.startsWith('.'));
}

/**
 * Brotli's best level for what every visitor downloads. Source maps are large and sent only to those
 * debugging (SERVE_SOURCE_MAPS), where the best level would cost most of the build for little.
 */
function brotliQuality(file: string): number {
  return file.endsWith('.map') ? 5 : zlib.constants.BROTLI_MAX_QUALITY;
}

async function writeCopies(file: string): Promise<number> {
  const bytes = await fs.readFile(file);
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality(file),
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    }),
    gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  let written = 0;
  // A copy no smaller than its file would only cost the visitor a decoding.
  for (const [copy, suffix] of [
    [br, '.br'],
    [gz, '.gz'],
  ] as const) {
    if (copy.length < bytes.length) {
      await fs.writeFile(`${file}${suffix}`, copy);
      written += 1;
    }
  }
  return written;
}

/** Writes the copies of every compressible file over the threshold under `root`; answers how many. */
export async function writeCompressedCopies(root: string): Promise<number> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name) || isNeverSent(path.relative(root, file))) continue;
    if ((await fs.stat(file)).size > COPY_THRESHOLD_BYTES) files.push(file);
  }
  // zlib works on its thread pool: all at once keeps every thread busy.
  const counts = await Promise.all(files.map(writeCopies));
  return counts.reduce((sum, count) => sum + count, 0);
}
