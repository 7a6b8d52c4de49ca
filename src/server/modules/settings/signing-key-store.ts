import { randomBytes } from 'node:crypto';
import { type Database, type Executor, holdLock, inLockedTransaction } from '../../db/database.js';
import { generationOf, type SigningKey } from '../../lib/tokens.js';
import { SettingsRepository } from './settings-repository.js';

/**
 * The signing key kept in the settings table when JWT_SECRET is not set: the secret and its
 * generation, the id every token names. Neither leaves the database: dumps and db:backup copies go
 * without them (dump-tables.ts), so whoever reads a backup cannot sign tokens.
 */
export const SECRET_SETTING = 'jwt_secret';
export const KEY_GENERATION_SETTING = 'jwt_key_generation';
export const SIGNING_KEY_SETTINGS = [SECRET_SETTING, KEY_GENERATION_SETTING] as const;

/** Taken by whatever writes the key, so two writers do not interleave their two rows. */
const LOCK = 'signing-key';

function settingsOn(database: Database, db: Executor): SettingsRepository {
  return new SettingsRepository({ ...database, db });
}

/** The stored key, or undefined while there is none (a new database, a restored backup). */
export async function readStoredKey(settings: SettingsRepository): Promise<SigningKey | undefined> {
  // One statement: the secret and its generation as one commit left them.
  const values = await settings.getMany(SIGNING_KEY_SETTINGS);
  const secret = values.get(SECRET_SETTING);
  const id = values.get(KEY_GENERATION_SETTING);
  return secret !== undefined && id !== undefined ? { id, secret } : undefined;
}

/** The stored generation (0 when there is none). */
export async function storedGeneration(settings: SettingsRepository): Promise<number> {
  return generationOf(await settings.get(KEY_GENERATION_SETTING));
}

/**
 * Stores a new secret one generation past the stored one and past `after` (the generation a database
 * had before an import replaced its rows), so that every process on the database sees that the key
 * changed. Run it in a transaction that excludes other writers of the key.
 */
export async function writeNewKey(settings: SettingsRepository, after = 0): Promise<SigningKey> {
  const id = String(Math.max(await storedGeneration(settings), after) + 1);
  const secret = randomBytes(48).toString('base64url');
  await settings.put(SECRET_SETTING, secret);
  await settings.put(KEY_GENERATION_SETTING, id);
  return { id, secret };
}

/**
 * The stored key, made when there is none: at the first start, and at the first start on a restored
 * backup or on a database of a version that kept no generation (its tokens name no key: refused anyway).
 */
export async function ensureStoredKey(database: Database): Promise<SigningKey> {
  const stored = await readStoredKey(new SettingsRepository(database));
  if (stored) return stored;
  return inLockedTransaction(database, LOCK, async (trx) => {
    const settings = settingsOn(database, trx);
    return (await readStoredKey(settings)) ?? writeNewKey(settings);
  });
}

/**
 * Excludes every other writer of the key until the caller's transaction ends: an import, which
 * replaces the key in its own transaction, takes it before it reads the stored generation, so that a
 * rotation cannot commit the same generation with another secret in between.
 */
export function holdKeyLock(database: Database, trx: Executor): Promise<void> {
  return holdLock(database, trx, LOCK);
}

/** Replaces the stored key: from the commit on, every process refuses the tokens of the old one. */
export function rotateStoredKey(database: Database): Promise<SigningKey> {
  return inLockedTransaction(database, LOCK, (trx) => writeNewKey(settingsOn(database, trx)));
}
