import { describe, expect, it } from 'vitest';
import { relyingPartyOf } from './relying-party.js';

describe('relyingPartyOf', () => {
  it("takes PUBLIC_URL's host name and origin, whatever Host the request names", () => {
    expect(relyingPartyOf('https://results.example:8443', { host: '10.0.0.1', protocol: 'http' })).toEqual({
      id: 'results.example',
      origin: 'https://results.example:8443',
    });
  });

  it('without PUBLIC_URL, serves localhost with the origin a browser reports', () => {
    const local = (host: string, protocol = 'http') => relyingPartyOf(undefined, { host, protocol });
    expect(local('localhost:3000')).toEqual({ id: 'localhost', origin: 'http://localhost:3000' });
    expect(local('LOCALHOST')).toEqual({ id: 'localhost', origin: 'http://localhost' });
    expect(local('localhost:80')).toEqual({ id: 'localhost', origin: 'http://localhost' });
    expect(local('localhost:443', 'https')).toEqual({ id: 'localhost', origin: 'https://localhost' });
  });

  it('without PUBLIC_URL, has none for an IP address or another name', () => {
    for (const host of ['127.0.0.1:3000', '[::1]:3000', 'results.example', 'localhost.evil.example', ''])
      expect(relyingPartyOf(undefined, { host, protocol: 'http' })).toBeNull();
  });
});
