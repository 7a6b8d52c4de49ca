import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto';

/*
 * C2SP signed-note and tlog-checkpoint: the checkpoint's text (origin, size, base64 root), signed
 * with the log's Ed25519 key; its signature line names the key by the first 4 bytes of
 * SHA-256(name || 0x0A || 0x01 || public key).
 */

/** The signature type of Ed25519 in signed notes. */
const ED25519 = 0x01;

/** PKCS#8 DER of an Ed25519 private key, before its 32-byte seed (RFC 8410). */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface LogKey {
  privateKey: KeyObject;
  /** The raw 32-byte public key. */
  publicKey: Buffer;
}

export function logKeyFromSeed(seed: Buffer): LogKey {
  if (seed.length !== 32) throw new Error('An Ed25519 seed is 32 bytes');
  return logKeyOf(
    createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' }),
  );
}

export function logKeyOf(privateKey: KeyObject): LogKey {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('The log key must be an Ed25519 key');
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return { privateKey, publicKey: Buffer.from(jwk.x ?? '', 'base64url') };
}

/** The 32-byte seed (what the database keeps). */
export function seedOf(key: LogKey): Buffer {
  return Buffer.from(key.privateKey.export({ format: 'jwk' }).d ?? '', 'base64url');
}

export function keyId(origin: string, publicKey: Buffer): Buffer {
  return createHash('sha256')
    .update(Buffer.concat([Buffer.from(origin, 'utf8'), Buffer.of(0x0a, ED25519), publicKey]))
    .digest()
    .subarray(0, 4);
}

/** The C2SP verifier key: `<origin>+<key id hex>+<base64(0x01 || public key)>`. */
export function verifierKey(origin: string, key: LogKey): string {
  const material = Buffer.concat([Buffer.of(ED25519), key.publicKey]).toString('base64');
  return `${origin}+${keyId(origin, key.publicKey).toString('hex')}+${material}`;
}

/** `text` (ending in a newline), a blank line, and one signature line by `origin`. */
export function signNote(text: string, origin: string, key: LogKey): string {
  if (!text.endsWith('\n')) throw new Error('A note text ends with a newline');
  const signature = sign(null, Buffer.from(text, 'utf8'), key.privateKey);
  const blob = Buffer.concat([keyId(origin, key.publicKey), signature]).toString('base64');
  return `${text}\n\u2014 ${origin} ${blob}\n`;
}

/** The checkpoint's body: origin, tree size, base64 root hash (no extension lines). */
export function checkpointText(origin: string, size: number, root: Buffer): string {
  return `${origin}\n${size}\n${root.toString('base64')}\n`;
}

/**
 * The checkpoint origin: LOG_ORIGIN, else PUBLIC_URL's host and path (no scheme, no trailing
 * slash), else null (the caller uses `localhost/log` and warns).
 */
export function logOriginOf(logOrigin: string | undefined, publicUrl: string | undefined): string | null {
  if (logOrigin) return logOrigin;
  if (!publicUrl) return null;
  const url = new URL(publicUrl);
  return `${url.host}${url.pathname}`.replace(/\/+$/, '');
}

export const FALLBACK_ORIGIN = 'localhost/log';
