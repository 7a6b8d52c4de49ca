import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { fastPathHeaders } from './fast-path-headers.js';

/** A request as Node's parser leaves it: the headers object, names lower-cased, repeats joined. */
function request(headers: IncomingHttpHeaders): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

describe('fastPathHeaders', () => {
  it('reads the nine headers it knows, and nothing else', () => {
    const picked = fastPathHeaders(
      request({
        host: 'results.example',
        origin: 'https://results.example',
        authorization: 'Bearer t',
        'accept-encoding': 'br',
        'if-none-match': '"tag"',
        'x-request-id': 'proxy-1',
        'content-length': '0',
        'transfer-encoding': 'chunked',
        'x-session-id': 'session-1',
        'sec-fetch-site': 'same-origin',
        'accept-language': 'en',
      }),
    );
    expect({ ...picked }).toEqual({
      host: 'results.example',
      origin: 'https://results.example',
      authorization: 'Bearer t',
      acceptEncoding: 'br',
      ifNoneMatch: '"tag"',
      requestId: 'proxy-1',
      contentLength: '0',
      transferEncoding: 'chunked',
      sessionId: 'session-1',
    });
  });

  it('leaves unset what the request does not send, and takes no list for one value', () => {
    const picked = fastPathHeaders(request({ host: 'a', 'x-session-id': ['s1', 's2'] }));
    expect(picked.host).toBe('a');
    expect(picked.sessionId).toBeUndefined();
    expect(picked.origin).toBeUndefined();
    expect(picked.acceptEncoding).toBeUndefined();
  });

  it('gives every request’s headers one shape, whatever the order they came in', () => {
    const first = fastPathHeaders(request({ origin: 'o', host: 'h' }));
    const second = fastPathHeaders(request({ host: 'h', origin: 'o' }));
    expect(Object.keys(first)).toEqual(Object.keys(second));
    expect(Object.keys(first)).toHaveLength(9);
  });
});
