import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TwoFactorEnableAnswer, TwoFactorSetupAnswer } from '../../src/shared/schemas/two-factor.js';
import { call, expectStatus } from './factories.js';

/** RFC 4648 base32, as an authenticator app decodes a secret. */
function base32Bytes(secret: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/=+$/, '').toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`Not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => Number.parseInt(byte, 2)));
}

/**
 * A code as an authenticator app computes it, written here from RFC 6238 and RFC 4226 (HMAC-SHA-1,
 * dynamic truncation, 6 digits, 30-second steps) rather than with the server's library, so that the
 * suites check the server against the standard, not against itself.
 */
export function totpAt(secret: string, atMs: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / 30)));
  const mac = createHmac('sha1', base32Bytes(secret)).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/** Sets up and enables two-factor for the token's user, with a code of `atMs` (the app's clock). */
export async function enableTwoFactor(
  app: FastifyInstance,
  token: string,
  atMs: number,
): Promise<{ secret: string; backupCodes: string[] }> {
  const { secret } = expectStatus<TwoFactorSetupAnswer>(
    await call(app, { method: 'POST', url: '/api/users/me/2fa/setup', token }),
    200,
  );
  const { backupCodes } = expectStatus<TwoFactorEnableAnswer>(
    await call(app, {
      method: 'POST',
      url: '/api/users/me/2fa/enable',
      token,
      body: { Code: totpAt(secret, atMs) },
    }),
    200,
  );
  return { secret, backupCodes };
}
