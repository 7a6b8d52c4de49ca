import { describe, expect, it } from 'vitest';
import { clientGroup, trustProxyFunction } from './client-address.js';

describe('client groups', () => {
  it('keeps IPv4 as it is and reads an IPv4-mapped IPv6 address as IPv4', () => {
    expect(clientGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(clientGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientGroup('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('groups IPv6 by /64, whichever way the address is written', () => {
    const group = '2001:db8:1:2::/64';
    expect(clientGroup('2001:db8:1:2::1')).toBe(group);
    expect(clientGroup('2001:0db8:0001:0002:ffff:eeee:dddd:cccc')).toBe(group);
    expect(clientGroup('2001:DB8:1:2:0:0:0:9')).toBe(group);
    expect(clientGroup('2001:db8:1:2::1%eth0')).toBe(group);
    expect(clientGroup('2001:db8:1:3::1')).not.toBe(group);
    expect(clientGroup('::1')).toBe('0:0:0:0::/64');
    expect(clientGroup('fe80::')).toBe('fe80:0:0:0::/64');
  });

  it('leaves what is no address alone', () => {
    expect(clientGroup('')).toBe('');
    expect(clientGroup('1:2:3')).toBe('1:2:3');
    expect(clientGroup('1::2::3')).toBe('1::2::3');
  });
});

describe('TRUST_PROXY', () => {
  it('trusts nothing, everything, a number of hops, or listed addresses', () => {
    expect(trustProxyFunction(false)).toBe(false);
    const all = trustProxyFunction(true);
    expect(all && all('198.51.100.1', 5)).toBe(true);
    const hops = trustProxyFunction(2);
    expect(hops && [hops('x', 0), hops('x', 1), hops('x', 2)]).toEqual([true, true, false]);
    const listed = trustProxyFunction('loopback, 10.0.0.0/8');
    expect(listed && [listed('127.0.0.1', 0), listed('10.1.2.3', 0), listed('203.0.113.1', 0)]).toEqual([
      true,
      true,
      false,
    ]);
  });
});
