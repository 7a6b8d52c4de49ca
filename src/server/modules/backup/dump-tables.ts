import type { DatabaseSchema } from '../../db/schema.js';
import { VAPID_KEY_SETTINGS } from '../push/vapid-key-store.js';
import { SIGNING_KEY_SETTINGS } from '../settings/signing-key-store.js';
import { LOG_KEY_SETTING } from '../transparency/log-key-store.js';

export type TableName = keyof DatabaseSchema;

type ColumnOf<T extends TableName> = keyof DatabaseSchema[T] & string;

export interface TableSpec<T extends TableName> {
  /** The single-column primary key: rows are read in pages ordered by it and keep it on import. */
  key: ColumnOf<T>;
  /** The key is generated (an identity or autoincrement): PostgreSQL's sequence is moved after an import. */
  generated: boolean;
  /** Columns PostgreSQL answers as text (bigint): written as numbers, as SQLite answers them. */
  bigints?: readonly ColumnOf<T>[];
  /** Columns of bytes (SQLite blob, PostgreSQL bytea): written as base64 text, read back as bytes. */
  binary?: readonly ColumnOf<T>[];
  /** Rows per page and per insert when rows are large (images): memory stays flat either way. */
  rowsPerPage?: number;
  /**
   * A row the migrations themselves insert: it does not make a database non-empty, and an import
   * replaces it with the dump's.
   */
  seed?: { readonly [C in ColumnOf<T>]?: string | number };
  /**
   * Rows that never leave the database: not exported, deleted from a db:backup copy, and dropped
   * from a dump made before they were left out.
   */
  omit?: { column: ColumnOf<T>; values: readonly string[] };
  /**
   * Rows that live a few days and answer only retries of those days' requests: none is exported, a
   * db:backup copy is emptied of them, and an import leaves the table empty. (`key` is never read:
   * nothing is paged.)
   */
  transient?: true;
}

/**
 * Every table a dump holds, parents before children (the order of import; deletes go the other way).
 * `satisfies` a mapped type over DatabaseSchema, so a table added to the schema and not listed here
 * fails the type check. Keys are table names (never numeric), so the literal's order is kept.
 */
export const DUMP_TABLES = {
  // The signing keys (tokens, the transparency log, Web Push's VAPID key): whoever reads a dump or a
  // backup must not be able to sign with them.
  settings: {
    key: 'key',
    generated: false,
    omit: { column: 'key', values: [...SIGNING_KEY_SETTINGS, LOG_KEY_SETTING, ...VAPID_KEY_SETTINGS] },
  },
  users: { key: 'user_id', generated: true },
  // The TOTP secrets and the backup codes' hashes: a restore keeps everyone's second factor (a dump
  // is a full backup; the README says so).
  user_two_factor: { key: 'user_id', generated: false },
  two_factor_backup_codes: { key: 'code_id', generated: true },
  // Public keys are no secret, and a restore that dropped them would leave everyone's passkeys
  // unknown to the site (decision 0024).
  passkeys: { key: 'passkey_id', generated: true, bigints: ['counter'] },
  ghadis: { key: 'gid', generated: true },
  holidays: { key: 'holiday_id', generated: true },
  results: { key: 'result_id', generated: true },
  // Entries awaiting a second person: a restore keeps them, so nobody has to enter a value again.
  pending_declarations: { key: 'pending_id', generated: true },
  result_history: { key: 'history_id', generated: true },
  declarations: { key: 'seq', generated: false },
  // The log's signed checkpoints are public history (a monitor may hold any of them): kept.
  log_checkpoints: { key: 'size', generated: false },
  // The tree's nodes are rebuilt from the entries at start (TransparencyLog.catchUp).
  log_nodes: { key: 'level', generated: false, transient: true },
  usermaps: { key: 'usermap_id', generated: true },
  content_blocks: { key: 'block_id', generated: true },
  // The media library's images live in the database, so a dump carries them (a few megabytes each at most).
  media: { key: 'media_id', generated: true },
  media_files: { key: 'path', generated: false, binary: ['data'], rowsPerPage: 20 },
  visitors: { key: 'session_id', generated: false, bigints: ['last_seen'] },
  visitor_totals: { key: 'name', generated: false, bigints: ['total'], seed: { name: 'sessions', total: 0 } },
  daily_stats: { key: 'date', generated: false },
  change_log: { key: 'change_id', generated: true },
  // Numbered by the app, not by the database (see the migration): nothing to move after an import.
  activity_log: { key: 'activity_id', generated: false },
  login_attempts: { key: 'attempt_id', generated: true },
  login_attempt_counts: { key: 'counter', generated: false, bigints: ['touched_at', 'last_attempt'] },
  // Sessions end with a restore or an import (signing in again is the price of not carrying the
  // users' addresses and devices in every dump).
  sessions: { key: 'session_id', generated: false, transient: true },
  // A key is kept for retries of a submission, three days at most, and its answer copies the result's
  // row: a restored database has the results, a retry without its key changes nothing when the value
  // is the same (decision 0010), and one sent with Expected cannot undo a later correction.
  idempotency_keys: { key: 'key', generated: false, transient: true },
  // A challenge lives five minutes and answers one sign-in or registration under way.
  webauthn_challenges: { key: 'challenge', generated: false, transient: true },
  // A subscription works only with the VAPID key it was made for, which never leaves the database:
  // on a restored or imported database the key is new, so the browsers subscribe again (decision 0025).
  push_subscriptions: { key: 'subscription_id', generated: true, transient: true },
  push_subscription_ghadis: { key: 'subscription_id', generated: false, transient: true },
  // The outbox lives minutes: what it had not sent when the dump was made is stale after a restore.
  notifications: { key: 'notification_id', generated: true, transient: true },
  notification_deliveries: { key: 'delivery_id', generated: true, transient: true },
  telegram_messages: { key: 'gid', generated: false, transient: true },
} as const satisfies { [T in TableName]: TableSpec<T> };

/** The tables in import order. */
export const TABLE_ORDER = Object.keys(DUMP_TABLES) as TableName[];

export function tableSpec(table: TableName): TableSpec<TableName> {
  return DUMP_TABLES[table] as TableSpec<TableName>;
}

/** Whether a row is one `omit` or `transient` keeps out of dumps and backups. */
export function isOmitted(table: TableName, row: Record<string, unknown>): boolean {
  const { omit, transient } = tableSpec(table);
  return transient === true || omit?.values.includes(row[omit.column] as string) === true;
}

export function isTableName(name: string): name is TableName {
  return Object.hasOwn(DUMP_TABLES, name);
}
