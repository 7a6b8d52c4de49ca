import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.js';
import type { Database } from './db/database.js';
import { whileAlone } from './db/first-start.js';
import { migrateToLatest } from './db/migrate.js';
import type { PasswordHasher } from './lib/passwords.js';
import { ENVIRONMENT_KEY_ID, type SigningKey } from './lib/tokens.js';
import type { DeclarationLog } from './modules/declarations/declaration-log.js';
import { GhadisRepository } from './modules/ghadis/ghadis-repository.js';
import { ensureStoredKey } from './modules/settings/signing-key-store.js';
import { announceFirstAdminPassword, type Terminal } from './modules/users/first-admin-password.js';
import { UsersRepository } from './modules/users/users-repository.js';

/** The spec's time table, so a newcomer's first page is not empty. */
export const STARTER_GHADIS = [
  { name_en: 'NCR', name_hn: 'एनसीआर', r_time: '1:45 PM' },
  { name_en: 'Delhi Bazar', name_hn: 'दिल्ली बाज़ार', r_time: '2:45 PM' },
  { name_en: 'Shiri Ganesh', name_hn: 'श्री गणेश', r_time: '4:15 PM' },
  { name_en: 'Faridabad', name_hn: 'फरीदाबाद', r_time: '5:50 PM' },
  { name_en: 'Ghaziabad', name_hn: 'गाज़ियाबाद', r_time: '9:15 PM' },
  { name_en: 'Gali', name_hn: 'गली', r_time: '11:15 PM' },
  { name_en: 'Disawer', name_hn: 'दिसावर', r_time: '4:00 AM' },
];

interface BootstrapDeps {
  config: AppConfig;
  users: UsersRepository;
  ghadis: GhadisRepository;
  passwords: PasswordHasher;
  log: FastifyBaseLogger;
  /** Where a generated password may be printed (default: standard output, when it is a terminal). */
  terminal?: Terminal;
}

/**
 * The signing key: JWT_SECRET, or one generated on the first start and kept so restarts keep sessions
 * (again after a restored backup or an import, which carry none).
 */
export function resolveJwtSecret(config: AppConfig, database: Database): Promise<SigningKey> {
  if (config.jwtSecret) return Promise.resolve({ id: ENVIRONMENT_KEY_ID, secret: config.jwtSecret });
  return ensureStoredKey(database);
}

/** On an empty database: the first admin and the starter ghadis. */
export async function bootstrapData({
  config,
  users,
  ghadis,
  passwords,
  log,
  terminal,
}: BootstrapDeps): Promise<void> {
  if ((await users.countAll()) === 0) {
    const generated = config.adminPassword === undefined;
    const password = config.adminPassword ?? randomBytes(18).toString('base64url');
    const now = new Date().toISOString();
    const passwordHash = await passwords.hash(password);
    // The password is handed over before the admin is committed: one that cannot be written (a
    // read-only folder) leaves no admin whose password nobody has, and the next start tries again.
    await users.withTransaction(async (inTransaction) => {
      await inTransaction.insert({
        username: config.adminUsername,
        display_name: 'Administrator',
        email: `${config.adminUsername}@localhost`,
        password_hash: passwordHash,
        user_type: 'admin',
        is_active: 1,
        // A password that went to a terminal or a file: replaced before the account does anything else.
        password_change_required: generated ? 1 : 0,
        created_at: now,
        updated_at: now,
      });
      if (generated)
        announceFirstAdminPassword({ config, log, username: config.adminUsername, password, terminal });
    });
    log.info({ username: config.adminUsername }, 'created the first admin');
  }
  if ((await ghadis.countAll()) === 0) {
    const now = new Date().toISOString();
    for (const [index, ghadi] of STARTER_GHADIS.entries()) {
      await ghadis.insert({ ...ghadi, order_id: index + 1 }, undefined, now);
    }
    log.info({ count: STARTER_GHADIS.length }, 'created the starter ghadis');
  }
}

/**
 * Brings a database up to date and, when it is empty, gives it its first admin, starter ghadis and
 * signing key; once, however many processes start at the same moment. Returns the signing key.
 */
export function prepareDatabase(
  database: Database,
  config: AppConfig,
  passwords: PasswordHasher,
  log: FastifyBaseLogger,
  terminal?: Terminal,
): Promise<SigningKey> {
  return whileAlone(database, async (alone) => {
    await migrateToLatest(alone, { timeZone: config.siteTimezone });
    await bootstrapData({
      config,
      users: new UsersRepository(alone),
      ghadis: new GhadisRepository(alone),
      passwords,
      log,
      terminal,
    });
    return resolveJwtSecret(config, alone);
  });
}

/**
 * The declaration log at start: written for the results stored before it existed (once), then checked
 * against itself and the results table. A mismatch is logged, naming the first bad entry; the site
 * still starts (its visitors can check the log themselves: npm run verify).
 */
export async function checkDeclarationLog(declarations: DeclarationLog, log: FastifyBaseLogger) {
  const written = await declarations.backfill();
  if (written > 0) log.info({ entries: written }, 'declaration log written for the results stored before it');
  const treeSize = await declarations.catchUpTree();
  if (treeSize !== null) log.debug({ size: treeSize }, "the log's Merkle tree holds every entry");
  const { entries, problem } = await declarations.verify();
  if (problem) log.error({ entries, problem }, `the declaration log does not verify: ${problem}`);
  else log.debug({ entries }, 'the declaration log verifies');
}
