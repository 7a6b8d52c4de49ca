/**
 * The receiving half of Web Push's cryptography, for the local push service (push-service.ts):
 * RFC 8291 message decryption (aes128gcm, RFC 8188) for a subscription whose private key we hold,
 * and RFC 8292 VAPID checks. Written from the RFCs so that a sender's bug does not cancel out
 * against the same bug here.
 */
import crypto from 'node:crypto';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';

const HEADER_FIXED = 21; // salt (16) + record size (4) + key id length (1)
const TAG_LENGTH = 16;
const VAPID_MAX_LIFETIME_S = 24 * 60 * 60;

export interface SubscriptionKeys {
  ecdh: crypto.ECDH;
  /** The subscription's public key, uncompressed P-256 point (the `p256dh` key). */
  publicKey: Buffer;
  /** The 16-byte authentication secret (the `auth` key). */
  authSecret: Buffer;
}

export function newSubscriptionKeys(): SubscriptionKeys {
  const ecdh = crypto.createECDH('prime256v1');
  const publicKey = ecdh.generateKeys();
  return { ecdh, publicKey, authSecret: crypto.randomBytes(16) };
}

function hmac(key: Buffer, data: Buffer): Buffer {
  return crypto.createHmac('sha256', key).update(data).digest();
}

/** HKDF (RFC 5869) for outputs of at most one hash block, which is all Web Push asks for. */
function hkdf(salt: Buffer, ikm: Buffer, info: Buffer, length: number): Buffer {
  const prk = hmac(salt, ikm);
  return hmac(prk, Buffer.concat([info, Buffer.from([1])])).subarray(0, length);
}

/** Decrypts an aes128gcm push message body to the sender's plaintext; throws on any flaw. */
export function decryptPushPayload(body: Buffer, keys: SubscriptionKeys): Buffer {
  if (body.length < HEADER_FIXED) throw new Error('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body[20] ?? 0;
  if (keyIdLength !== 65) throw new Error(`key id of ${keyIdLength} bytes, not a P-256 point`);
  const senderPublic = body.subarray(HEADER_FIXED, HEADER_FIXED + keyIdLength);
  const records = body.subarray(HEADER_FIXED + keyIdLength);
  if (recordSize <= TAG_LENGTH + 1) throw new Error(`record size ${recordSize} too small`);

  // RFC 8291 section 3.4: the input keying material mixes the ECDH secret with the auth secret.
  const ecdhSecret = keys.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0', 'latin1'), keys.publicKey, senderPublic]);
  const ikm = hkdf(keys.authSecret, ecdhSecret, keyInfo, 32);
  // RFC 8188 section 2.2 and 2.3: content key and base nonce from the salt.
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0', 'latin1'), 16);
  const baseNonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0', 'latin1'), 12);

  const plain: Buffer[] = [];
  let sawLast = false;
  for (let offset = 0, seq = 0; offset < records.length; offset += recordSize, seq++) {
    if (sawLast) throw new Error('data after the last record');
    const record = records.subarray(offset, offset + recordSize);
    if (record.length <= TAG_LENGTH) throw new Error('record without content');
    const nonce = Buffer.from(baseNonce);
    // The sequence number is XORed into the nonce's low bytes (RFC 8188 section 2.3); a message
    // never has 2^32 records, so the low four bytes are all it can touch.
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - TAG_LENGTH));
    const padded = Buffer.concat([
      decipher.update(record.subarray(0, record.length - TAG_LENGTH)),
      decipher.final(),
    ]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    if (end < 0) throw new Error('record without a padding delimiter');
    const delimiter = padded[end];
    const isLast = offset + recordSize >= records.length;
    if (delimiter === 2) sawLast = true;
    else if (delimiter !== 1 || isLast) throw new Error(`bad padding delimiter ${delimiter}`);
    plain.push(padded.subarray(0, end));
  }
  if (!sawLast) throw new Error('message truncated: no last record');
  return Buffer.concat(plain);
}

export type VapidCheck = { ok: true; publicKey: string; subject: string } | { ok: false; reason: string };

/**
 * Checks an `Authorization: vapid t=…, k=…` header (RFC 8292 section 3): an ES256 JWT signed by
 * the key k, whose audience is the push resource's origin, expiring within a day, with a subject.
 */
export async function checkVapid(
  authorization: string | undefined,
  audience: string,
  now: Date,
): Promise<VapidCheck> {
  const match = /^vapid\s+(.+)$/i.exec(authorization ?? '');
  if (!match?.[1]) return { ok: false, reason: 'no vapid Authorization header' };
  const params = new Map<string, string>();
  for (const part of match[1].split(',')) {
    const [name, ...value] = part.trim().split('=');
    if (name) params.set(name.toLowerCase(), value.join('='));
  }
  const token = params.get('t');
  const k = params.get('k');
  if (!token || !k) return { ok: false, reason: 'vapid header without t or k' };
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return { ok: false, reason: 'k is not a P-256 point' };
  try {
    if (decodeProtectedHeader(token).alg !== 'ES256') return { ok: false, reason: 'alg is not ES256' };
    const key = await importJWK(
      {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      'ES256',
    );
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['ES256'],
      audience,
      currentDate: now,
      requiredClaims: ['exp'],
    });
    const nowS = Math.floor(now.getTime() / 1000);
    if ((payload.exp ?? 0) > nowS + VAPID_MAX_LIFETIME_S) {
      return { ok: false, reason: 'exp is more than 24 hours ahead' };
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') {
      return { ok: false, reason: 'no sub claim' };
    }
    return { ok: true, publicKey: k, subject: payload.sub };
  } catch (error) {
    return { ok: false, reason: `JWT rejected: ${(error as Error).message}` };
  }
}
