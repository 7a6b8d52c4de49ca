import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { z } from 'zod';
import type { Delivery } from '../edge/answer-delivery.js';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const unbrotli = promisify(zlib.brotliDecompress);

/** Below this size compression saves too little to be worth a variant (as @fastify/compress's threshold). */
const COMPRESS_THRESHOLD_BYTES = 1024;

export type Encoding = 'br' | 'gzip' | 'identity';

/** How a shared cache in front of the site may keep an answer (answer-delivery.ts writes the headers). */
export interface AnswerCaching {
  /** What the answer shows (answer-keys.ts): the answer cache drops it, and a shared cache purges it, by these. */
  keys: readonly string[];
  /** True when it may change at any moment (today's, the board, the log); false for a closed period. */
  open: boolean;
  /**
   * False for an answer made for the request's own address (the site files without PUBLIC_URL):
   * a shared cache must not give it to a request for another.
   */
  shared?: false;
  /** A file whose address names its bytes (a hash): every cache keeps it a year. */
  immutable?: true;
}

/**
 * A ready response: serialized once, compressed once, sent many times. A compressible answer is made
 * with brotli (what nearly every browser asks for) and the encodings asked of its key before; another
 * encoding is made from it when first asked (`withEncoding`), so that what is kept is what is read.
 */
export interface CachedAnswer {
  status: number;
  contentType: string;
  /** The body hash (of its identity bytes); each encoding has its own strong ETag derived from it. */
  hash: string;
  /** Whether the answer has compressed variants (it is large enough, and kept). */
  compressible: boolean;
  bodies: Partial<Record<Encoding, Buffer>>;
  etags: Record<Encoding, string>;
  caching: AnswerCaching;
  /** An embed: a page other sites may show in a frame (its headers allow it). */
  frameable?: true;
  /** Built on first use, per encoding, version and for the 304: what goes on the wire. */
  deliveries: Map<string, Delivery>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * Compression levels by size. Answers are rebuilt after every change that shows on them, so the level
 * must stay cheap: brotli's best (11) takes whole seconds for a large page, level 9 tens of
 * milliseconds for a little more saved, level 5 a few milliseconds a megabyte.
 */
const LARGE_BODY_BYTES = 128 * 1024;

/**
 * A window no larger than the body: brotli's default (4 MB) is allocated and freed on the event loop
 * at each compression, which once cost a page build more than its rendering.
 */
function brotliWindowFor(size: number): number {
  const { BROTLI_MIN_WINDOW_BITS, BROTLI_MAX_WINDOW_BITS } = zlib.constants;
  return Math.min(BROTLI_MAX_WINDOW_BITS, Math.max(BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(size + 1))));
}

function compressionFor(size: number) {
  const large = size >= LARGE_BODY_BYTES;
  return {
    gzip: { level: large ? 6 : zlib.constants.Z_BEST_COMPRESSION },
    brotli: {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: large ? 5 : 9,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
        [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowFor(size),
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    },
  };
}

export interface PrepareOptions {
  caching: AnswerCaching;
  /** False for an answer sent once and not kept (compressing it would cost more than it saves). */
  compress?: boolean;
  /** An embed, which other sites may frame. */
  frameable?: true;
}

/** A body's bytes as sent, its hash, and its brotli copy when it is worth one. */
export interface EncodedBody {
  identity: Buffer;
  hash: string;
  br: Buffer | undefined;
}

/** A body's bytes and hash, and the brotli options to compress it with when it is worth it. */
function bytesOf(body: string, compress: boolean) {
  const identity = Buffer.from(body, 'utf8');
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  const worthIt = compress && identity.length >= COMPRESS_THRESHOLD_BYTES;
  return { identity, hash, brotli: worthIt ? compressionFor(identity.length).brotli : null };
}

/** Encodes a body with brotli off the event loop (zlib's thread pool). */
export async function encodeBody(body: string, compress: boolean): Promise<EncodedBody> {
  const { identity, hash, brotli: options } = bytesOf(body, compress);
  return { identity, hash, br: options ? await brotli(identity, options) : undefined };
}

/** The same, at once: for a process of its own (page-render-process.ts), where waiting holds up nothing. */
export function encodeBodyNow(body: string, compress: boolean): EncodedBody {
  const { identity, hash, brotli: options } = bytesOf(body, compress);
  return { identity, hash, br: options ? zlib.brotliCompressSync(identity, options) : undefined };
}

/** A cached answer of an encoded body. */
export function answerOf(
  status: number,
  contentType: string,
  { identity, hash, br }: EncodedBody,
  { caching, frameable }: PrepareOptions,
): CachedAnswer {
  return {
    status,
    contentType,
    hash,
    compressible: br !== undefined,
    bodies: { identity, br },
    etags: { identity: `"${hash}"`, gzip: `"${hash}-gz"`, br: `"${hash}-br"` },
    caching,
    ...(frameable ? { frameable } : {}),
    deliveries: new Map(),
  };
}

/** Serializes and compresses a body off the event loop (zlib's thread pool), once per change. */
export async function prepareAnswer(
  status: number,
  contentType: string,
  body: string,
  options: PrepareOptions,
): Promise<CachedAnswer> {
  return answerOf(status, contentType, await encodeBody(body, options.compress !== false), options);
}

export function prepareJson(status: number, value: unknown, options: PrepareOptions): Promise<CachedAnswer> {
  return prepareAnswer(status, JSON_TYPE, JSON.stringify(value), options);
}

/** JSON through a route's own response schema, so that cached bytes equal what a live handler sends. */
export function encodeJson<T extends z.ZodType>(
  schema: T,
  value: z.input<T>,
  caching: AnswerCaching,
): Promise<CachedAnswer> {
  return prepareJson(200, z.encode(schema, value as z.output<T>), { caching });
}

/** The failure body the API's error handler sends, so cached 404s read exactly like live ones. */
export function prepareFailure(
  status: number,
  message: string,
  caching: AnswerCaching,
): Promise<CachedAnswer> {
  return prepareJson(status, { success: false, message }, { caching });
}

/** The bytes of an encoding, made from the ones the answer has when it lacks them; kept on the answer. */
export async function withEncoding(answer: CachedAnswer, encoding: Encoding): Promise<Buffer> {
  const kept = answer.bodies[encoding];
  if (kept) return kept;
  const identity = answer.bodies.identity ?? (await unbrotli(answer.bodies.br as Buffer));
  answer.bodies.identity = identity;
  if (encoding === 'identity') return identity;
  const levels = compressionFor(identity.length);
  const made =
    encoding === 'gzip' ? await gzip(identity, levels.gzip) : await brotli(identity, levels.brotli);
  answer.bodies[encoding] = made;
  return made;
}

/** Forgets the bodies of encodings nobody asked for (they are made again when asked): kept memory. */
export function keepOnly(answer: CachedAnswer, encodings: ReadonlySet<Encoding>): void {
  if (!answer.compressible) return;
  for (const encoding of ['identity', 'gzip'] as const)
    if (!encodings.has(encoding) && answer.bodies.br) delete answer.bodies[encoding];
}

/** Bytes an answer's kept bodies take. */
export function answerBytes(answer: CachedAnswer): number {
  const { identity, gzip: gz, br } = answer.bodies;
  return (identity?.length ?? 0) + (gz?.length ?? 0) + (br?.length ?? 0);
}
