import fs from 'node:fs';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

export type FileEncoding = 'br' | 'gzip';

/** Below this size compression saves too little to be worth it (as @fastify/compress's threshold). */
const THRESHOLD_BYTES = 1024;

/** A file as it is sent in one encoding: compressed, or as it is when it is too small to gain. */
interface KeptAnswer {
  body: Buffer;
  encoded: boolean;
}

/**
 * The encoding to send for an Accept-Encoding header: brotli, else gzip, else none. A q of 0 refuses
 * an encoding; `*` stands for any the header does not name.
 */
export function preferredEncoding(header: string | undefined): FileEncoding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name === 'x-gzip' ? 'gzip' : name, Number.isNaN(weight) ? 0 : weight);
  }
  const weightOf = (encoding: FileEncoding) => weights.get(encoding) ?? weights.get('*') ?? 0;
  const [br, gzip] = [weightOf('br'), weightOf('gzip')];
  if (br > 0 && br >= gzip) return 'br';
  return gzip > 0 ? 'gzip' : null;
}

function compress(bytes: Buffer, encoding: FileEncoding): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (encoding === 'gzip') {
      zlib.gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }, done);
      return;
    }
    // Level 9, not brotli's best (11): the first visitor waits for it, and 11 takes seconds on a
    // large bundle for little more saved.
    const params = {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    };
    zlib.brotliCompress(bytes, { params }, done);
  });
}

async function encode(file: fs.ReadStream, encoding: FileEncoding): Promise<KeptAnswer> {
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  if (bytes.length < THRESHOLD_BYTES) return { body: bytes, encoded: false };
  return { body: await compress(bytes, encoding), encoded: true };
}

function varyOnEncoding(reply: FastifyReply) {
  const current = reply.getHeader('vary');
  const text = Array.isArray(current) ? current.join(', ') : current === undefined ? '' : String(current);
  if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(text))
    reply.header('vary', text ? `${text}, accept-encoding` : 'accept-encoding');
}

/**
 * The files @fastify/static sends in this scope, compressed once per file and encoding on first
 * request and kept in memory: @fastify/compress would compress a large file again for every
 * request. What is sent is the same as @fastify/compress would send (an encoded body, Vary), and a
 * file too small to gain goes out as it is. Add to the scope before the routes that send the files;
 * a file changed on disk is read again only after a restart.
 */
export function compressFilesOnce(scope: FastifyInstance): void {
  // Keyed by the file's own path, never the address: however many spellings reach a file, one entry.
  const kept = new Map<string, Promise<KeptAnswer>>();
  scope.addHook('onSend', async (request, reply, payload) => {
    // Ranges (206), revalidations (304) and HEAD answers are left to @fastify/static as they are.
    if (!(payload instanceof fs.ReadStream) || request.method !== 'GET' || reply.statusCode !== 200)
      return payload;
    varyOnEncoding(reply);
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const key = `${encoding} ${String(payload.path)}`;
    let answer = kept.get(key);
    if (answer) {
      payload.destroy();
    } else {
      answer = encode(payload, encoding);
      kept.set(key, answer);
      // A failed read is tried again by the next request, not remembered.
      answer.catch(() => kept.delete(key));
    }
    const { body, encoded } = await answer;
    if (encoded) reply.header('content-encoding', encoding);
    return body;
  });
}
