import { describe, expect, it } from 'vitest';
import { clientAddressOf, clientGroup, trustProxyFunction, trustsEveryAddress } from './client-address.js';

describe('clientGroup', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(clientGroup(' 10.0.0.1 ')).toBe('10.0.0.1');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, in either spelling', () => {
    expect(clientGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientGroup('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(clientGroup('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('groups IPv6 addresses by their /64 network, whatever the spelling', () => {
    const group = '2001:db8:85a3:12::/64';
    for (const address of [
      '2001:db8:85a3:12::1',
      '2001:0DB8:85a3:0012:ffff:ffff:ffff:ffff',
      '2001:db8:85a3:12:1:2:3:4',
      '2001:db8:85a3:12::192.0.2.1',
      '2001:db8:85a3:12::1%eth0',
    ]) {
      expect({ address, group: clientGroup(address) }).toEqual({ address, group });
    }
    expect(clientGroup('2001:db8:85a3:13::1')).toBe('2001:db8:85a3:13::/64');
    expect(clientGroup('::1')).toBe('0:0:0:0::/64');
    expect(clientGroup('fe80::1')).toBe('fe80:0:0:0::/64');
    expect(clientGroup('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('keeps anything that is not an IP address as given (lower-cased)', () => {
    expect(clientGroup('Unknown')).toBe('unknown');
    expect(clientGroup('')).toBe('');
  });
});

describe('TRUST_PROXY', () => {
  it('trusts nothing, a number of hops, or listed addresses', () => {
    expect(trustProxyFunction(false)).toBe(false);
    const hops = trustProxyFunction(2);
    expect(hops && [hops('x', 0), hops('x', 1), hops('x', 2)]).toEqual([true, true, false]);
    const listed = trustProxyFunction('loopback, 10.0.0.0/8');
    expect(listed && [listed('127.0.0.1', 0), listed('10.1.2.3', 0), listed('203.0.113.1', 0)]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('names the rightmost address that is not a trusted proxy’s, whatever the client wrote before it', () => {
    const request = (peer: string, forwardedFor: string) =>
      ({ socket: { remoteAddress: peer }, headers: { 'x-forwarded-for': forwardedFor } }) as never;
    const proxy = trustProxyFunction('127.0.0.1');
    expect(clientAddressOf(request('127.0.0.1', '203.0.113.9, 198.51.100.7'), proxy)).toBe('198.51.100.7');
    // A client that is not the proxy is itself, whatever it writes.
    expect(clientAddressOf(request('198.51.100.7', '203.0.113.9'), proxy)).toBe('198.51.100.7');
    const oneHop = trustProxyFunction(1);
    expect(clientAddressOf(request('10.0.0.5', '203.0.113.9, 198.51.100.7'), oneHop)).toBe('198.51.100.7');
    expect(clientAddressOf(request('10.0.0.5', '203.0.113.9'), false)).toBe('10.0.0.5');
  });

  it('tells a list that takes in every IPv4 or IPv6 address from one that names proxies', () => {
    const everyAddress = (setting: string) => {
      const trust = trustProxyFunction(setting);
      return trust !== false && trustsEveryAddress(trust);
    };
    for (const setting of [
      '0.0.0.0/1, 128.0.0.0/1',
      '::ffff:0:0/96',
      '::/1, 8000::/1',
      '0.0.0.0/128.0.0.0, 128.0.0.0/128.0.0.0',
    ]) {
      expect({ setting, every: everyAddress(setting) }).toEqual({ setting, every: true });
    }
    for (const setting of ['loopback', 'loopback, linklocal, uniquelocal', '0.0.0.0/1', '10.0.0.5, ::1']) {
      expect({ setting, every: everyAddress(setting) }).toEqual({ setting, every: false });
    }
  });
});
