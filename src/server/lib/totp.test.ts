import { describe, expect, it } from 'vitest';
import { backupCodeHash, newBackupCodes } from './backup-codes.js';
import { matchingStep, newTotpSecret, totpCodeAt, totpStep, totpUrl } from './totp.js';

/** RFC 6238's SHA-1 key, "12345678901234567890", in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it('gives RFC 6238’s SHA-1 test values (their last six digits)', () => {
    const vectors: [number, string][] = [
      [59, '287082'],
      [1_111_111_109, '081804'],
      [1_111_111_111, '050471'],
      [1_234_567_890, '005924'],
      [2_000_000_000, '279037'],
    ];
    for (const [seconds, code] of vectors)
      expect(totpCodeAt(RFC_SECRET, totpStep(seconds * 1000))).toBe(code);
  });

  it('accepts the step before, the step and the step after, and only those later than the last used', () => {
    const at = 1_234_567_890_000;
    const step = totpStep(at);
    const code = (offset: number) => totpCodeAt(RFC_SECRET, step + offset);
    expect(matchingStep(RFC_SECRET, code(0), at, null)).toBe(step);
    expect(matchingStep(RFC_SECRET, code(-1), at, null)).toBe(step - 1);
    expect(matchingStep(RFC_SECRET, code(1), at, null)).toBe(step + 1);
    expect(matchingStep(RFC_SECRET, code(2), at, null)).toBeNull();
    expect(matchingStep(RFC_SECRET, code(-2), at, null)).toBeNull();
    expect(matchingStep(RFC_SECRET, code(0), at, step)).toBeNull();
    expect(matchingStep(RFC_SECRET, code(-1), at, step - 1)).toBeNull();
    expect(matchingStep(RFC_SECRET, code(1), at, step)).toBe(step + 1);
  });

  it('makes 160-bit base32 secrets and an otpauth URL naming the site and the user', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const url = new URL(totpUrl(secret, 'Ghadi Results', 'chief'));
    expect(decodeURIComponent(url.pathname)).toBe('/Ghadi Results:chief');
    expect(url.searchParams.get('issuer')).toBe('Ghadi Results');
    expect(url.searchParams.get('secret')).toBe(secret);
  });
});

describe('backup codes', () => {
  it('makes ten distinct codes and hashes each however it is typed', () => {
    const codes = newBackupCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const [code = ''] = codes;
    expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    expect(backupCodeHash(code)).toMatch(/^[0-9a-f]{64}$/);
    expect(backupCodeHash(code.replaceAll('-', '').toUpperCase())).toBe(backupCodeHash(code));
    expect(backupCodeHash(codes[1] ?? '')).not.toBe(backupCodeHash(code));
  });
});
