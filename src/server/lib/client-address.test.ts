import { describe, expect, it } from 'vitest';
import { clientAddressGroup } from './client-address.js';

describe('clientAddressGroup', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientAddressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressGroup(' 10.0.0.1 ')).toBe('10.0.0.1');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, in either spelling', () => {
    expect(clientAddressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressGroup('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(clientAddressGroup('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
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
      expect({ address, group: clientAddressGroup(address) }).toEqual({ address, group });
    }
    expect(clientAddressGroup('2001:db8:85a3:13::1')).toBe('2001:db8:85a3:13::/64');
    expect(clientAddressGroup('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressGroup('fe80::1')).toBe('fe80:0:0:0::/64');
    expect(clientAddressGroup('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('keeps anything that is not an IP address as given (lower-cased)', () => {
    expect(clientAddressGroup('Unknown')).toBe('unknown');
    expect(clientAddressGroup('')).toBe('');
  });
});
