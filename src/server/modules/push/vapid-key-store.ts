import webPush from 'web-push';
import { type Database, inLockedTransaction } from '../../db/database.js';
import { SettingsRepository } from '../settings/settings-repository.js';

/**
 * The VAPID key pair (RFC 8292) kept in the settings table when VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY
 * are not set: made at the first start with push on, never exported (dump-tables.ts), like the
 * signing keys. Browsers subscribe with the public key; a new pair makes every subscription useless.
 */
export const VAPID_PUBLIC_SETTING = 'vapid_public_key';
export const VAPID_PRIVATE_SETTING = 'vapid_private_key';
export const VAPID_KEY_SETTINGS = [VAPID_PUBLIC_SETTING, VAPID_PRIVATE_SETTING] as const;

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const LOCK = 'vapid-key';

async function readStored(settings: SettingsRepository): Promise<VapidKeys | undefined> {
  const values = await settings.getMany(VAPID_KEY_SETTINGS);
  const publicKey = values.get(VAPID_PUBLIC_SETTING);
  const privateKey = values.get(VAPID_PRIVATE_SETTING);
  return publicKey && privateKey ? { publicKey, privateKey } : undefined;
}

/** The stored pair, made (once, whatever the number of processes starting) when there is none. */
export async function ensureVapidKeys(database: Database): Promise<VapidKeys> {
  const stored = await readStored(new SettingsRepository(database));
  if (stored) return stored;
  return inLockedTransaction(database, LOCK, async (trx) => {
    const settings = new SettingsRepository({ ...database, db: trx });
    const again = await readStored(settings);
    if (again) return again;
    const made = webPush.generateVAPIDKeys();
    await settings.put(VAPID_PUBLIC_SETTING, made.publicKey);
    await settings.put(VAPID_PRIVATE_SETTING, made.privateKey);
    return made;
  });
}
