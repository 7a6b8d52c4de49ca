import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/**
 * The request headers the fast path reads. A class, so that every request's object has one shape:
 * the fast path's reads of it stay monomorphic (an object filled in header order took a shape per
 * order, and the reads went through V8's megamorphic lookups).
 */
export class FastPathHeaders {
  host: string | undefined = undefined;
  origin: string | undefined = undefined;
  authorization: string | undefined = undefined;
  acceptEncoding: string | undefined = undefined;
  ifNoneMatch: string | undefined = undefined;
  requestId: string | undefined = undefined;
  contentLength: string | undefined = undefined;
  transferEncoding: string | undefined = undefined;
  sessionId: string | undefined = undefined;
}

/** Each header's name (lower case) and its field; `pick` spells the same out for speed. */
export const HEADER_FIELDS: readonly (readonly [name: string, field: keyof FastPathHeaders])[] = [
  ['host', 'host'],
  ['origin', 'origin'],
  ['authorization', 'authorization'],
  ['accept-encoding', 'acceptEncoding'],
  ['if-none-match', 'ifNoneMatch'],
  ['x-request-id', 'requestId'],
  ['content-length', 'contentLength'],
  ['transfer-encoding', 'transferEncoding'],
  ['x-session-id', 'sessionId'],
];

/** Whether a header name is `lower` in any letter case; `usual` is how clients usually spell it. */
function isNamed(name: string, lower: string, usual: string): boolean {
  return name === lower || name === usual || name.toLowerCase() === lower;
}

/**
 * One raw header put in its field; false when its field is set already (a name given twice). Most
 * names are none of these: their length rules them out before any comparison. The fields are written
 * one by one, not through a computed key, which V8 would look up on each write.
 */
function pick(picked: FastPathHeaders, name: string, value: string): boolean {
  switch (name.length) {
    case 4:
      if (!isNamed(name, 'host', 'Host')) return true;
      if (picked.host !== undefined) return false;
      picked.host = value;
      return true;
    case 6:
      if (!isNamed(name, 'origin', 'Origin')) return true;
      if (picked.origin !== undefined) return false;
      picked.origin = value;
      return true;
    case 12:
      if (isNamed(name, 'x-session-id', 'X-Session-Id')) {
        if (picked.sessionId !== undefined) return false;
        picked.sessionId = value;
      } else if (isNamed(name, 'x-request-id', 'X-Request-Id')) {
        if (picked.requestId !== undefined) return false;
        picked.requestId = value;
      }
      return true;
    case 13:
      if (isNamed(name, 'authorization', 'Authorization')) {
        if (picked.authorization !== undefined) return false;
        picked.authorization = value;
      } else if (isNamed(name, 'if-none-match', 'If-None-Match')) {
        if (picked.ifNoneMatch !== undefined) return false;
        picked.ifNoneMatch = value;
      }
      return true;
    case 14:
      if (!isNamed(name, 'content-length', 'Content-Length')) return true;
      if (picked.contentLength !== undefined) return false;
      picked.contentLength = value;
      return true;
    case 15:
      if (!isNamed(name, 'accept-encoding', 'Accept-Encoding')) return true;
      if (picked.acceptEncoding !== undefined) return false;
      picked.acceptEncoding = value;
      return true;
    case 17:
      if (!isNamed(name, 'transfer-encoding', 'Transfer-Encoding')) return true;
      if (picked.transferEncoding !== undefined) return false;
      picked.transferEncoding = value;
      return true;
    default:
      return true;
  }
}

/**
 * The headers the fast path reads, found in the raw header list. Node's `request.headers` builds an
 * object of every header on first use, nearly all of them unread here; one pass over the raw list
 * costs a fraction of that. A name given twice is left to Node's rules (it joins some and keeps the
 * first of others): the values then come from `request.headers`, as Fastify would read them.
 */
export function fastPathHeaders(request: IncomingMessage): FastPathHeaders {
  const raw = request.rawHeaders;
  const picked = new FastPathHeaders();
  for (let index = 0; index < raw.length; index += 2) {
    if (!pick(picked, raw[index] as string, raw[index + 1] as string))
      return fromNodeHeaders(request.headers);
  }
  return picked;
}

/** The rare case (a name given twice): computed writes are fine here, the fields exist already. */
function fromNodeHeaders(headers: IncomingHttpHeaders): FastPathHeaders {
  const picked = new FastPathHeaders();
  for (const [name, field] of HEADER_FIELDS) {
    const value = headers[name];
    if (typeof value === 'string') picked[field] = value;
  }
  return picked;
}
