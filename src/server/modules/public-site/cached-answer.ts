import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ResponseHeaders } from '../../lib/response-headers.js';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** Below this size compression saves too little to be worth a variant (as @fastify/compress's threshold). */
const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Public answers may be stored by browsers and proxies but must be revalidated every time
 * (a result has to show within 2 seconds); the ETag makes the revalidation a 304.
 */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

export type Encoding = 'br' | 'gzip' | 'identity';

/** A ready response: serialized once, compressed once, sent many times. */
export interface CachedAnswer {
  status: number;
  contentType: string;
  /** The body hash; each encoding has its own strong ETag derived from it. */
  hash: string;
  bodies: Record<Encoding, Buffer | undefined> & { identity: Buffer };
  etags: Record<Encoding, string>;
  /** Built on first use, per encoding and for the 304: what goes on the wire. */
  deliveries: Partial<Record<Encoding | `${Encoding}-304`, Delivery>>;
}

/** The status, headers (security headers included) and body of one representation. */
export interface Delivery {
  status: number;
  headers: Readonly<Record<string, string>>;
  /**
   * The same headers as a flat list (name, value, name, value…), the form the fast path hands to
   * Node's writeHead. Given an object, writeHead walks its keys in a loop that Fastify's own answers
   * (each with header objects of many shapes) also go through, and V8's lookups there become the
   * slow, generic kind; the list keeps them fast (bench/README.md).
   */
  headerList: readonly string[];
  body: Buffer | null;
}

export function makeDelivery(
  status: number,
  headers: Readonly<Record<string, string>>,
  body: Buffer | null,
): Delivery {
  return { status, headers, headerList: Object.entries(headers).flat(), body };
}

export const JSON_TYPE = 'application/json; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * Compression levels by size. Answers are rebuilt after every change, and visitors wait for the
 * rebuild, so the level must stay cheap: brotli's best (11) takes whole seconds for a large page,
 * level 9 tens of milliseconds for a little more saved, level 5 a few milliseconds a megabyte.
 */
const LARGE_BODY_BYTES = 128 * 1024;

function compressionFor(size: number) {
  const large = size >= LARGE_BODY_BYTES;
  return {
    gzip: { level: large ? 6 : zlib.constants.Z_BEST_COMPRESSION },
    brotli: {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: large ? 5 : 9,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    },
  };
}

/** Serializes and compresses a body off the event loop (zlib's thread pool), once per change. */
export async function prepareAnswer(
  status: number,
  contentType: string,
  body: string,
  /** False for an answer sent once and not kept (compressing it would cost more than it saves). */
  compress = true,
): Promise<CachedAnswer> {
  const identity = Buffer.from(body, 'utf8');
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  const levels = compressionFor(identity.length);
  const [gz, br] =
    compress && identity.length >= COMPRESS_THRESHOLD_BYTES
      ? await Promise.all([gzip(identity, levels.gzip), brotli(identity, levels.brotli)])
      : [undefined, undefined];
  return {
    status,
    contentType,
    hash,
    bodies: { identity, gzip: gz, br },
    etags: { identity: `"${hash}"`, gzip: `"${hash}-gz"`, br: `"${hash}-br"` },
    deliveries: {},
  };
}

export function prepareJson(status: number, value: unknown): Promise<CachedAnswer> {
  return prepareAnswer(status, JSON_TYPE, JSON.stringify(value));
}

/** JSON through a route's own response schema, so that cached bytes equal what a live handler sends. */
export function encodeJson<T extends z.ZodType>(schema: T, value: z.input<T>): Promise<CachedAnswer> {
  return prepareJson(200, z.encode(schema, value as z.output<T>));
}

/** The failure body the API's error handler sends, so cached 404s read exactly like live ones. */
export function prepareFailure(status: number, message: string): Promise<CachedAnswer> {
  return prepareJson(status, { success: false, message });
}

// Browsers send a handful of distinct Accept-Encoding values; parsing each once keeps the hot path cheap.
const encodingChoices = new Map<string, { br: boolean; gzip: boolean }>();
const MAX_REMEMBERED_HEADERS = 64;

function acceptedEncodings(header: string): { br: boolean; gzip: boolean } {
  let choice = encodingChoices.get(header);
  if (choice) return choice;
  choice = { br: false, gzip: false };
  let wildcard: boolean | undefined;
  const refused = new Set<string>();
  for (const part of header.toLowerCase().split(',')) {
    const [token = '', ...params] = part.trim().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    const name = token.trim();
    if (name === '*') wildcard = accepted;
    else if (name === 'br' || name === 'gzip' || name === 'x-gzip') {
      if (accepted) choice[name === 'br' ? 'br' : 'gzip'] = true;
      else refused.add(name === 'br' ? 'br' : 'gzip');
    }
  }
  if (wildcard) {
    if (!refused.has('br')) choice.br = true;
    if (!refused.has('gzip')) choice.gzip = true;
  }
  if (encodingChoices.size >= MAX_REMEMBERED_HEADERS) encodingChoices.clear();
  encodingChoices.set(header, choice);
  return choice;
}

function chooseEncoding(header: string | undefined, answer: CachedAnswer): Encoding {
  if (!header || answer.bodies.gzip === undefined) return 'identity';
  const accepted = acceptedEncodings(header);
  if (accepted.br && answer.bodies.br) return 'br';
  if (accepted.gzip) return 'gzip';
  return 'identity';
}

/** True when If-None-Match names this answer in any encoding (or is "*"). */
function isNotModified(header: string, answer: CachedAnswer): boolean {
  if (header === '*') return true;
  // A cheap test first: most requests either carry no tag or the current one.
  if (!header.includes(answer.hash)) return false;
  for (const raw of header.split(',')) {
    const tag = raw.trim().replace(/^W\//, '');
    if (tag === answer.etags.identity || tag === answer.etags.gzip || tag === answer.etags.br) return true;
  }
  return false;
}

/** What to send for a request with these Accept-Encoding and If-None-Match headers. */
export function deliver(
  answer: CachedAnswer,
  site: ResponseHeaders,
  acceptEncoding: string | undefined,
  ifNoneMatch: string | undefined,
): Delivery {
  const encoding = chooseEncoding(acceptEncoding, answer);
  const notModified =
    answer.status === 200 && ifNoneMatch !== undefined && isNotModified(ifNoneMatch, answer);
  const key = notModified ? (`${encoding}-304` as const) : encoding;
  let delivery = answer.deliveries[key];
  if (!delivery) {
    const headers: Record<string, string> = {
      ...site.securityFor(answer.contentType),
      'cache-control': PUBLIC_CACHE_CONTROL,
    };
    const vary = site.vary(answer.bodies.gzip !== undefined);
    if (vary) headers.vary = vary;
    if (answer.status === 200) headers.etag = answer.etags[encoding];
    const body = notModified ? null : (answer.bodies[encoding] ?? answer.bodies.identity);
    if (body) {
      headers['content-type'] = answer.contentType;
      if (encoding !== 'identity') headers['content-encoding'] = encoding;
      headers['content-length'] = String(body.length);
    }
    delivery = makeDelivery(notModified ? 304 : answer.status, headers, body);
    answer.deliveries[key] = delivery;
  }
  return delivery;
}

/**
 * Sends a cached answer through Fastify as bytes: no serializer runs, and @fastify/compress is
 * kept out of these routes. Answers 304 to a matching If-None-Match.
 */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer,
  site: ResponseHeaders,
): FastifyReply {
  const delivery = deliver(
    answer,
    site,
    request.headers['accept-encoding'],
    request.headers['if-none-match'],
  );
  reply.code(delivery.status).headers(delivery.headers);
  return delivery.body ? reply.send(delivery.body) : reply.send();
}

/** What one request adds to a ready answer's headers (the front door, which bypasses Fastify). */
export interface OwnHeaders {
  /**
   * The caller's (a proxy's) x-request-id, echoed. The front door logs nothing, so a request id of its
   * own would name no log line.
   */
  requestId: string | undefined;
  /** An allowed origin's CORS headers. */
  cors: Readonly<Record<string, string>> | undefined;
}

/** Writes a ready answer straight to Node's response (the front door). */
export function writeDelivery(response: ServerResponse, delivery: Delivery, own: OwnHeaders): void {
  const { requestId, cors } = own;
  // The common case (no request id, no CORS) sends the prepared list as it is.
  const headers =
    requestId === undefined && !cors
      ? delivery.headerList
      : [
          ...delivery.headerList,
          ...(cors ? Object.entries(cors).flat() : []),
          ...(requestId === undefined ? [] : ['x-request-id', requestId]),
        ];
  response.writeHead(delivery.status, headers as string[]);
  response.end(delivery.body ?? undefined);
}
