import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { type Database, inLockedTransaction } from '../../db/database.js';
import { SettingsRepository } from '../settings/settings-repository.js';
import { type LogKey, logKeyFromSeed, logKeyOf, seedOf } from './signed-note.js';

/**
 * The log's signing key (its 32-byte Ed25519 seed, base64) when LOG_KEY_FILE is not set. Like the
 * token signing key it never leaves the database: dumps and db:backup copies go without it
 * (dump-tables.ts), so a restored backup makes a new key, which monitors see as a changed key.
 */
export const LOG_KEY_SETTING = 'log_signing_key';

/** Taken by whatever writes the key, so two first starts do not make two keys. */
const LOCK = 'log-signing-key';

/** LOG_KEY_FILE (a PEM PKCS#8 Ed25519 private key), else the stored key, made at the first start. */
export async function resolveLogKey(database: Database, keyFile: string | undefined): Promise<LogKey> {
  if (keyFile) return logKeyOf(createPrivateKey(await readFile(keyFile, 'utf8')));
  const stored = await new SettingsRepository(database).get(LOG_KEY_SETTING);
  if (stored) return logKeyFromSeed(Buffer.from(stored, 'base64'));
  return inLockedTransaction(database, LOCK, async (trx) => {
    const settings = new SettingsRepository({ ...database, db: trx });
    const again = await settings.get(LOG_KEY_SETTING);
    if (again) return logKeyFromSeed(Buffer.from(again, 'base64'));
    const key = logKeyOf(generateKeyPairSync('ed25519').privateKey);
    await settings.put(LOG_KEY_SETTING, seedOf(key).toString('base64'));
    return key;
  });
}
