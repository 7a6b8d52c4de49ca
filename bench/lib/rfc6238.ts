/**
 * The acceptance checks' own RFC 6238 TOTP (HMAC-SHA-1, 6 digits, 30-second steps) with RFC 4648
 * base32, written from the RFCs with node:crypto alone, so that a code the server accepts is proof
 * that it follows the standard an authenticator app follows, not that it agrees with its own code.
 */
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const TOTP_STEP_SECONDS = 30;

/** RFC 4648 base32 (upper or lower case, padding and spaces ignored) to bytes. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${JSON.stringify(char)}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >>> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** RFC 4226 HOTP: the 6-digit code of a counter. */
export function hotp(key: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = (mac[19] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/** The 30-second step of an instant (milliseconds since the epoch). */
export function totpStep(atMs: number): number {
  return Math.floor(atMs / 1000 / TOTP_STEP_SECONDS);
}

/** RFC 6238: the code of a base32 secret at a step. */
export function totp(secret: string, step: number): string {
  return hotp(base32Decode(secret), step);
}
