/**
 * How long a client may hold a connection without getting on with its request. A client that sends
 * its request a byte at a time (slow headers, a trickled body) would otherwise keep a socket, and
 * the memory behind it, for as long as it likes; many such clients starve everyone else.
 * docs/operations.md lists them.
 */
export interface ServerTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
  /** How often Node looks for requests past their time (its default, 30 s, would add that much). */
  checkEveryMs: number;
}

export const SERVER_TIMEOUTS: ServerTimeouts = {
  /** From a request's first byte to the end of its headers. */
  headersMs: 10_000,
  /** From a request's first byte to the end of its body (the 10 MB CSV import on a slow line included). */
  requestMs: 60_000,
  /** An idle kept-alive connection between requests: longer than a proxy's usual 60 s, so the proxy closes first. */
  keepAliveMs: 72_000,
  checkEveryMs: 1_000,
};
