import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/**
 * The request headers the fast path reads, from Node's `request.headers`. Node builds that object
 * for every HTTP/1.1 request before any handler runs (it looks for `Expect` there), lower-casing
 * the names and joining or dropping a name given twice by its own rules; so reading it costs only
 * the lookups, and the values are the ones Fastify reads (scanning the raw list instead, to spare
 * an object Node builds anyway, cost 4 % more CPU a request: bench/README). A class, so that every
 * request's object has one shape and the fast path's reads of it stay monomorphic, whatever order
 * the headers came in.
 */
export class FastPathHeaders {
  readonly host: string | undefined;
  readonly origin: string | undefined;
  readonly authorization: string | undefined;
  readonly acceptEncoding: string | undefined;
  readonly ifNoneMatch: string | undefined;
  readonly requestId: string | undefined;
  readonly contentLength: string | undefined;
  readonly transferEncoding: string | undefined;
  readonly sessionId: string | undefined;

  constructor(headers: IncomingHttpHeaders) {
    this.host = headers.host;
    this.origin = headers.origin;
    this.authorization = headers.authorization;
    this.acceptEncoding = headers['accept-encoding'];
    this.ifNoneMatch = headers['if-none-match'];
    this.requestId = single(headers['x-request-id']);
    this.contentLength = headers['content-length'];
    this.transferEncoding = headers['transfer-encoding'];
    this.sessionId = single(headers['x-session-id']);
  }
}

/** Node joins a repeated custom header into one string; only set-cookie is ever a list. */
function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function fastPathHeaders(request: IncomingMessage): FastPathHeaders {
  return new FastPathHeaders(request.headers);
}
