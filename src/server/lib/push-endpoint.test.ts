import { describe, expect, it } from 'vitest';
import {
  checkPushEndpoint,
  isPublicAddress,
  publicOnlyLookup,
  RefusedAddressError,
} from './push-endpoint.js';

const closed = { allowLoopback: false };
const loopbackAllowed = { allowLoopback: true };

function lookUp(policy: { allowLoopback: boolean }, hostname: string, all: boolean) {
  return new Promise<{ error: Error | null; address: unknown }>((resolve) => {
    publicOnlyLookup(policy)(hostname, { all }, (error, address) => resolve({ error, address }));
  });
}

describe('push endpoint addresses', () => {
  it('takes public unicast addresses only', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888'])
      expect(isPublicAddress(address, closed)).toBe(true);
    for (const address of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '::',
      '224.0.0.1',
      'fc00::1',
      'fe80::1',
      'ff02::1',
      '64:ff9b::808:808',
      '2002:808:808::',
      '2001:db8::1',
      'not an address',
    ])
      expect(isPublicAddress(address, closed), address).toBe(false);
  });

  it('lets loopback through, and only loopback, when PUSH_ALLOW_LOOPBACK is on', () => {
    expect(isPublicAddress('127.0.0.1', loopbackAllowed)).toBe(true);
    expect(isPublicAddress('::1', loopbackAllowed)).toBe(true);
    expect(isPublicAddress('10.0.0.1', loopbackAllowed)).toBe(false);
    expect(checkPushEndpoint('https://127.0.0.1:4443/push/x', loopbackAllowed).ok).toBe(true);
    expect(checkPushEndpoint('https://localhost:4443/push/x', loopbackAllowed).ok).toBe(true);
    expect(checkPushEndpoint('http://127.0.0.1:4443/push/x', loopbackAllowed).ok).toBe(false);
  });

  it('reads every IPv4 spelling as the address the URL parser makes of it', () => {
    for (const endpoint of [
      'https://2130706433/',
      'https://0x7f.1/',
      'https://0177.0.0.1/',
      'https://127.1/',
    ])
      expect(checkPushEndpoint(endpoint, closed), endpoint).toEqual({
        ok: false,
        reason: 'must be on a public address',
      });
    expect(checkPushEndpoint('https://134744072/', closed)).toMatchObject({ ok: true });
  });

  it('refuses a name that resolves inside when the connection is made', async () => {
    for (const all of [false, true]) {
      const refused = await lookUp(closed, 'localhost', all);
      expect(refused.error).toBeInstanceOf(RefusedAddressError);
      const allowed = await lookUp(loopbackAllowed, 'localhost', all);
      expect(allowed.error).toBeNull();
      if (all) expect(Array.isArray(allowed.address)).toBe(true);
      else expect(typeof allowed.address).toBe('string');
    }
  });
});
