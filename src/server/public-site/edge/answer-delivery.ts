import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResponseHeaders } from '../../lib/response-headers.js';
import {
  type AnswerCaching,
  type CachedAnswer,
  type Encoding,
  withEncoding,
} from '../model/cached-answer.js';

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

/** How long a shared cache may serve an answer stale while it asks again, or while the site fails. */
const SHARED_STALE_SECONDS = 86_400;
/** A file named by its hash, as the web app's assets are. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** What may change at any moment is held a second by a shared cache that gets no purges… */
const OPEN_SHARED_MAX_AGE = 1;
/** …and a closed period (a past month or year) a day: it changes only by a correction. */
const CLOSED_SHARED_MAX_AGE = 86_400;

/**
 * Browsers revalidate every time (max-age=0: a result has to show at once; the ETag makes it a 304).
 * Shared caches hold an answer for s-maxage, serve it stale while they revalidate or while the site
 * fails, and can be purged by its keys sooner. An answer served stale by the site itself (while its
 * rebuild runs) is not for keeping: it carries no keys and s-maxage=0.
 *
 * stale-while-revalidate goes only to the caches in front, in CDN-Cache-Control (RFC 9213): Chrome
 * honours it in Cache-Control too, and would show a reader (or an admin's list) the copy from before
 * a declaration while it asks again in the background (decision record 0016).
 */
export function cachingHeaders(caching: AnswerCaching, stale: boolean): Record<string, string> {
  if (caching.shared === false) return { 'cache-control': 'private, max-age=0' };
  // Its bytes are its address's: a rebuild (stale or not) makes the same ones.
  if (caching.immutable) return { 'cache-control': IMMUTABLE };
  if (stale)
    return { 'cache-control': `public, max-age=0, s-maxage=0, stale-if-error=${SHARED_STALE_SECONDS}` };
  const shared = caching.open ? OPEN_SHARED_MAX_AGE : CLOSED_SHARED_MAX_AGE;
  return {
    'cache-control': `public, max-age=0, s-maxage=${shared}, stale-if-error=${SHARED_STALE_SECONDS}`,
    'cdn-cache-control': `public, max-age=${shared}, stale-while-revalidate=${SHARED_STALE_SECONDS}, stale-if-error=${SHARED_STALE_SECONDS}`,
  };
}

/** The headers naming an answer's keys: Surrogate-Key (Varnish's xkey, Fastly) and Cache-Tag (comma-separated). */
export function keyHeaders(keys: readonly string[]): Record<string, string> {
  return keys.length ? { 'surrogate-key': keys.join(' '), 'cache-tag': keys.join(',') } : {};
}

/**
 * The header that says which change log entry the answering process had applied: a shared cache that
 * was purged for a later change does not hold an answer from before it (docs/deployment.md).
 */
export const CHANGE_ID_HEADER = 'x-change-id';

/** What one send of an answer depends on besides the request's headers. */
export interface DeliveryState {
  site: ResponseHeaders;
  /** The id of the latest change this process has applied. */
  version: number;
  /** Served in place of an answer being rebuilt. */
  stale: boolean;
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

export function chooseEncoding(header: string | undefined, answer: CachedAnswer): Encoding {
  if (!header || !answer.compressible) return 'identity';
  const accepted = acceptedEncodings(header);
  if (accepted.br) return 'br';
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

const deliveriesVersion = new WeakMap<CachedAnswer, number>();

/**
 * What to send for a request with these Accept-Encoding and If-None-Match headers, or null when the
 * encoding it asks for has not been made yet (`sendCached` makes it).
 */
export function deliver(
  answer: CachedAnswer,
  state: DeliveryState,
  acceptEncoding: string | undefined,
  ifNoneMatch: string | undefined,
): Delivery | null {
  const encoding = chooseEncoding(acceptEncoding, answer);
  const notModified =
    answer.status === 200 && ifNoneMatch !== undefined && isNotModified(ifNoneMatch, answer);
  const body = notModified ? null : answer.bodies[encoding];
  if (body === undefined) return null;
  if (deliveriesVersion.get(answer) !== state.version) {
    answer.deliveries.clear();
    deliveriesVersion.set(answer, state.version);
  }
  const key = `${encoding}${notModified ? '-304' : ''}${state.stale ? '-stale' : ''}`;
  let delivery = answer.deliveries.get(key);
  if (!delivery) {
    const { site } = state;
    const headers: Record<string, string> = {
      ...site.securityFor(answer.contentType, answer.frameable),
      ...cachingHeaders(answer.caching, state.stale),
      ...(state.stale || answer.caching.shared === false ? {} : keyHeaders(answer.caching.keys)),
      [CHANGE_ID_HEADER]: String(state.version),
    };
    if (answer.compressible) headers.vary = 'accept-encoding';
    // The same answer for every origin, so that a shared cache keeps one copy of it.
    if (site.corsEnabled) headers['access-control-allow-origin'] = '*';
    if (answer.status === 200) headers.etag = answer.etags[encoding];
    if (body) {
      headers['content-type'] = answer.contentType;
      if (encoding !== 'identity') headers['content-encoding'] = encoding;
      headers['content-length'] = String(body.length);
    }
    delivery = makeDelivery(notModified ? 304 : answer.status, headers, body);
    answer.deliveries.set(key, delivery);
  }
  return delivery;
}

/**
 * Sends a cached answer through Fastify as bytes: no serializer runs, and @fastify/compress is kept
 * out of these routes. Answers 304 to a matching If-None-Match. An encoding not made yet is made
 * first, and `made` is told (the answer cache counts its bytes and makes it again on a rebuild).
 */
export async function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer,
  state: DeliveryState,
  made?: (encoding: Encoding) => void,
): Promise<FastifyReply> {
  const acceptEncoding = request.headers['accept-encoding'];
  const ifNoneMatch = request.headers['if-none-match'];
  let delivery = deliver(answer, state, acceptEncoding, ifNoneMatch);
  if (!delivery) {
    const encoding = chooseEncoding(acceptEncoding, answer);
    await withEncoding(answer, encoding);
    made?.(encoding);
    delivery = deliver(answer, state, acceptEncoding, ifNoneMatch) as Delivery;
  }
  reply.code(delivery.status).headers(delivery.headers);
  return delivery.body ? reply.send(delivery.body) : reply.send();
}

/** What one request adds to a ready answer's headers when it is not a shared one (visit tracking). */
export interface OwnHeaders {
  /** The caller's (a proxy's) x-request-id, echoed: the fast path logs nothing of its own. */
  requestId: string | undefined;
  /** An allowed origin's CORS headers. */
  cors: Readonly<Record<string, string>> | undefined;
}

/** Writes a ready answer straight to Node's response (the fast path). */
export function writeDelivery(response: ServerResponse, delivery: Delivery, own?: OwnHeaders): void {
  // The common case (a public answer, the same for everyone) sends the prepared list as it is.
  const headers =
    own === undefined || (own.requestId === undefined && !own.cors)
      ? delivery.headerList
      : [
          ...delivery.headerList,
          ...(own.cors ? Object.entries(own.cors).flat() : []),
          ...(own.requestId === undefined ? [] : ['x-request-id', own.requestId]),
        ];
  response.writeHead(delivery.status, headers as string[]);
  response.end(delivery.body ?? undefined);
}
