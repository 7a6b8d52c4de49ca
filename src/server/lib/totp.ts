import { timingSafeEqual } from 'node:crypto';
import { HOTP, Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it by default: SHA-1, 6 digits, 30-second steps. */
const ALGORITHM = 'SHA1';
const DIGITS = 6;
const PERIOD_SECONDS = 30;
/** Steps of drift accepted either way: a phone's clock a little off, a code typed as it turned. */
const DRIFT_STEPS = 1;

/** A new random secret of 160 bits (RFC 4226's recommended length), base32 without padding. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URL an authenticator app reads from a QR code. */
export function totpUrl(secret: string, issuer: string, account: string): string {
  return new TOTP({
    issuer,
    label: account,
    algorithm: ALGORITHM,
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  }).toString();
}

/** The 30-second step `at` (epoch ms) falls in. */
export function totpStep(at: number): number {
  return TOTP.counter({ period: PERIOD_SECONDS, timestamp: at });
}

/** The code of one step: for tests and for matchingStep. */
export function totpCodeAt(secret: string, step: number): string {
  return HOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: DIGITS,
    counter: step,
  });
}

function sameCode(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The step whose code `code` is, among the current one and one either side of it, and only if it is
 * later than `afterStep` (the last step accepted: a code is good once, and never one older than the
 * latest used). Null when none matches. The caller stores the step it got, conditionally, so that of
 * two processes given the same code only one accepts it.
 */
export function matchingStep(
  secret: string,
  code: string,
  at: number,
  afterStep: number | null,
): number | null {
  const now = totpStep(at);
  let found: number | null = null;
  // Every candidate is computed and compared, so that the time taken says nothing of which matched.
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    const matches = sameCode(totpCodeAt(secret, step), code);
    if (matches && found === null && (afterStep === null || step > afterStep)) found = step;
  }
  return found;
}
