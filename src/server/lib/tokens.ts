import { randomBytes } from 'node:crypto';
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  userId: number;
  version: number;
}

/** A verified token: its claims, its own id (jti: the session it names) and its expiry. */
export interface VerifiedToken extends TokenClaims {
  tokenId: string;
  /** Epoch seconds. */
  expiresAt: number;
  /** The key it was signed with (its header's kid). */
  keyId: string;
}

/** A key tokens are signed with, and its id, which every token names in its header (kid). */
export interface SigningKey {
  /** A stored key's generation ("1", "2", …), or ENVIRONMENT_KEY_ID for JWT_SECRET. */
  id: string;
  secret: string;
}

/** The id of the key JWT_SECRET gives: fixed, since changing that key means restarting every process. */
export const ENVIRONMENT_KEY_ID = 'env';

/** A stored key's generation as a number; 0 for anything that is not one (no key, JWT_SECRET's). */
export function generationOf(id: string | null | undefined): number {
  return id && /^[1-9][0-9]{0,14}$/.test(id) ? Number(id) : 0;
}

interface ActiveKey {
  id: string;
  bytes: Uint8Array;
}

function activeKey({ id, secret }: SigningKey): ActiveKey {
  return { id, bytes: new TextEncoder().encode(secret) };
}

/**
 * The key this process signs and verifies with. JWT_SECRET's is fixed. A stored key can be replaced
 * by another process (npm run rotate-secret, db:import), so it is read again before each signing
 * (a login, rare and slow anyway) and when a token names a newer generation than the one held.
 * Tokens of an older generation are refused by the session check, which reads the stored generation
 * with the user on every request.
 */
export class SigningKeys {
  private current: ActiveKey;
  /** The read a token of a newer generation waits for: one at a time, however many such tokens come. */
  private reading: Promise<ActiveKey> | undefined;

  private constructor(
    initial: SigningKey,
    private readonly read?: () => Promise<SigningKey>,
  ) {
    this.current = activeKey(initial);
  }

  static fixed(secret: string): SigningKeys {
    return new SigningKeys({ id: ENVIRONMENT_KEY_ID, secret });
  }

  /** A key kept in the database: `read` answers the one stored now. */
  static stored(initial: SigningKey, read: () => Promise<SigningKey>): SigningKeys {
    return new SigningKeys(initial, read);
  }

  async forSigning(): Promise<ActiveKey> {
    if (!this.read) return this.current;
    this.current = activeKey(await this.read());
    return this.current;
  }

  /** The key a token naming key `id` must verify with, or undefined when that is not the current key. */
  async forVerifying(id: string): Promise<ActiveKey | undefined> {
    if (id === this.current.id) return this.current;
    // A forged kid can make this process read the key again, but only one read at a time.
    if (this.read && generationOf(id) > generationOf(this.current.id)) {
      const read = this.read;
      this.reading ??= read()
        .then((key) => {
          this.current = activeKey(key);
          return this.current;
        })
        .finally(() => {
          this.reading = undefined;
        });
      const key = await this.reading;
      if (id === key.id) return key;
    }
    return undefined;
  }

  /** Whether key `id` is the current one, given the stored generation (read with the session). */
  isCurrent(id: string, storedId: string | null): boolean {
    return this.read ? id === storedId : id === this.current.id;
  }
}

const ISSUER = 'ghadi-results';

export class TokenService {
  constructor(
    private readonly keys: SigningKeys,
    private readonly ttlSeconds: number,
  ) {}

  /**
   * A new token, its id (the session it names: decision 0022) and its expiry (epoch seconds, by the
   * system clock, which is the one jose checks it by).
   */
  async sign(claims: TokenClaims): Promise<{ token: string; tokenId: string; expiresAt: number }> {
    const key = await this.keys.forSigning();
    const tokenId = randomBytes(16).toString('base64url');
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + this.ttlSeconds;
    const token = await new SignJWT({ ver: claims.version })
      .setProtectedHeader({ alg: 'HS256', kid: key.id })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setJti(tokenId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(key.bytes);
    return { token, tokenId, expiresAt };
  }

  /** A valid, unexpired token with an id, signed with the current key, or null for anything else. */
  async verify(token: string): Promise<VerifiedToken | null> {
    let keyId: unknown;
    try {
      keyId = decodeProtectedHeader(token).kid;
    } catch {
      return null;
    }
    if (typeof keyId !== 'string') return null;
    const key = await this.keys.forVerifying(keyId);
    if (!key) return null;
    try {
      const { payload } = await jwtVerify(token, key.bytes, { issuer: ISSUER, algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      const { ver: version, jti: tokenId, exp: expiresAt } = payload;
      if (!Number.isInteger(userId) || typeof version !== 'number') return null;
      if (typeof tokenId !== 'string' || tokenId.length === 0 || tokenId.length > 64) return null;
      if (typeof expiresAt !== 'number') return null;
      return { userId, version, tokenId, expiresAt, keyId };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }

  /** Whether a verified token's key is still the current one (`storedId`: the stored generation). */
  isCurrentKey(token: VerifiedToken, storedId: string | null): boolean {
    return this.keys.isCurrent(token.keyId, storedId);
  }
}
