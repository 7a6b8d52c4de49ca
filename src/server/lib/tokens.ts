import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  userId: number;
  version: number;
}

/** A verified token: its claims, its own id (jti, so that a logout can end it alone) and its expiry. */
export interface VerifiedToken extends TokenClaims {
  tokenId: string;
  /** Epoch seconds. */
  expiresAt: number;
}

const ISSUER = 'ghadi-results';

export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: TokenClaims): Promise<string> {
    return new SignJWT({ ver: claims.version })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setJti(randomBytes(16).toString('base64url'))
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  /** A valid, unexpired token with an id, or null for anything else. */
  async verify(token: string): Promise<VerifiedToken | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      const { ver: version, jti: tokenId, exp: expiresAt } = payload;
      if (!Number.isInteger(userId) || typeof version !== 'number') return null;
      if (typeof tokenId !== 'string' || tokenId.length === 0 || tokenId.length > 64) return null;
      if (typeof expiresAt !== 'number') return null;
      return { userId, version, tokenId, expiresAt };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}
