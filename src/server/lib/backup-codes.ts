import { createHash, randomInt } from 'node:crypto';
import { BACKUP_CODE_COUNT } from '../../shared/schemas/two-factor.js';

/** RFC 4648's base32 alphabet, lower case: no 0/O or 1/l to confuse when copied by hand. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const LENGTH = 16;

/** One code: 16 random base32 characters (80 bits), shown in groups of four, `abcd-efgh-ijkl-mnop`. */
function newBackupCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code.match(/.{4}/g)?.join('-') ?? code;
}

/** A fresh set of BACKUP_CODE_COUNT distinct codes, as the user is shown them. */
export function newBackupCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < BACKUP_CODE_COUNT) codes.add(newBackupCode());
  return [...codes];
}

/**
 * What is stored of a code: SHA-256 (hex) of its normalised form (the 16 characters, lower case, no
 * dashes: what the twoFactorCode schema makes of any way it is typed). A fast hash suffices for 80
 * random bits (nothing to guess from a dictionary), and, being deterministic, lets one conditional
 * update find and consume a code (decision 0023).
 */
export function backupCodeHash(code: string): string {
  return createHash('sha256')
    .update(code.replace(/[\s-]+/g, '').toLowerCase())
    .digest('hex');
}
