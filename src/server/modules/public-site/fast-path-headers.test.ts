import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { FastPathHeaders, fastPathHeaders, HEADER_FIELDS } from './fast-path-headers.js';

/** A request as Node's parser leaves it: the raw list, and the joined object Node builds from it. */
function request(rawHeaders: string[], headers: IncomingHttpHeaders = {}): IncomingMessage {
  return { rawHeaders, headers } as unknown as IncomingMessage;
}

function expected(fields: Partial<FastPathHeaders>): FastPathHeaders {
  return Object.assign(new FastPathHeaders(), fields);
}

describe('fastPathHeaders', () => {
  it('reads the nine headers it knows in any letter case, and nothing else', () => {
    const picked = fastPathHeaders(
      request([
        'Host',
        'results.example',
        'ORIGIN',
        'https://results.example',
        'authorization',
        'Bearer t',
        'accept-ENCODING',
        'br',
        'If-None-Match',
        '"tag"',
        'X-Request-Id',
        'proxy-1',
        'Content-Length',
        '0',
        'transfer-encoding',
        'chunked',
        'x-session-id',
        'session-1',
        // Lengths of known names, other names: skipped.
        'Sec-Fetch-Site',
        'same-origin',
        'Accept-Language',
        'en',
        'X-Forwarded-By',
        'proxy',
      ]),
    );
    expect(picked).toEqual(
      expected({
        host: 'results.example',
        origin: 'https://results.example',
        authorization: 'Bearer t',
        acceptEncoding: 'br',
        ifNoneMatch: '"tag"',
        requestId: 'proxy-1',
        contentLength: '0',
        transferEncoding: 'chunked',
        sessionId: 'session-1',
      }),
    );
  });

  it('leaves unset what the request does not send', () => {
    expect(fastPathHeaders(request(['Host', 'a', 'User-Agent', 'wrk']))).toEqual(expected({ host: 'a' }));
  });

  it('takes a name given twice from Node’s joined headers, as Fastify reads them', () => {
    const picked = fastPathHeaders(
      request(['Accept-Encoding', 'identity', 'accept-encoding', 'br', 'Host', 'a'], {
        'accept-encoding': 'identity, br',
        host: 'a',
      }),
    );
    expect(picked).toEqual(expected({ acceptEncoding: 'identity, br', host: 'a' }));
  });

  it('takes each of the nine from Node’s headers when its name is given twice', () => {
    expect(HEADER_FIELDS.map(([, field]) => field).sort()).toEqual(Object.keys(new FastPathHeaders()).sort());
    for (const [name, field] of HEADER_FIELDS) {
      // A value Node's parser would not give, so that it can only come from the object.
      const picked = fastPathHeaders(
        request([name, 'first', name.toUpperCase(), 'second'], { [name]: 'node' }),
      );
      expect(picked, name).toEqual(expected({ [field]: 'node' }));
    }
  });

  it('gives every request’s headers one shape, whatever the order they came in', () => {
    const first = fastPathHeaders(request(['Origin', 'o', 'Host', 'h']));
    const second = fastPathHeaders(request(['Host', 'h', 'Origin', 'o']));
    expect(Object.keys(first)).toEqual(Object.keys(second));
    expect(Object.keys(first)).toEqual(Object.keys(new FastPathHeaders()));
  });
});
