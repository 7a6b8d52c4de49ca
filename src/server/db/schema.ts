import type { ColumnType, Generated } from 'kysely';

/**
 * Table types. Booleans are 0/1 integers and instants are ISO-8601 UTC text in both
 * dialects, so rows read the same from SQLite and PostgreSQL.
 */
export interface UsersTable {
  user_id: Generated<number>;
  username: string;
  display_name: string;
  email: string;
  password_hash: string;
  user_type: 'admin' | 'agent';
  is_active: number;
  is_deleted: Generated<number>;
  /** Bumped when a password changes or access is withdrawn: older tokens stop working. */
  token_version: Generated<number>;
  created_at: string;
  updated_at: string;
  /** The user's last authenticated request (ISO), written at most once a minute; null before any. */
  last_seen_at: string | null;
  /** 1 for a first admin whose password the server generated, until that password is changed. */
  password_change_required: Generated<number>;
}

export interface GhadisTable {
  gid: Generated<number>;
  name_en: string;
  /** name_en folded as the app folds names (src/shared/names.ts): how public addresses find a ghadi. */
  name_folded: string;
  name_hn: string;
  r_time: string;
  order_id: number;
  is_active: Generated<number>;
  is_deleted: Generated<number>;
  created_at: string;
  updated_at: string;
  /** jodi, panna or open-close (src/shared/matka.ts). */
  kind: Generated<'jodi' | 'panna' | 'open-close'>;
  /** An open/close market's open time (text like r_time, which is its close time); null otherwise. */
  open_time: string | null;
  /** The weekdays it runs, as a bit set: bit d is weekday d (0 = Sunday); 127 is every day. */
  days: Generated<number>;
  /** How many people must enter the same value before it is published: 1 or 2 (decision 0020). */
  confirmations: Generated<number>;
}

/** A person's entry held until a second person enters the same value (one per ghadi, date and person). */
export interface PendingDeclarationsTable {
  pending_id: Generated<number>;
  gid: number;
  result_date: string;
  user_id: number;
  value: string;
  /** ISO instant of the app's clock when the person (last) entered it. */
  submitted_at: string;
}

/** A date a ghadi (gid), or every ghadi (gid 0), does not run. */
export interface HolidaysTable {
  holiday_id: Generated<number>;
  holiday_date: string;
  gid: number;
  note: string;
  created_by: number | null;
  created_at: string;
}

export interface ResultsTable {
  result_id: Generated<number>;
  gid: number;
  /** Business date, YYYY-MM-DD in the site's time zone. */
  result_date: string;
  value: string;
  created_by: number | null;
  is_active: Generated<number>;
  created_at: string;
  updated_at: string;
  /** The value the current one replaced (a correction), or null for a first declaration. */
  previous_value: string | null;
  /**
   * When the current value was declared. Nullable in the database only because SQLite cannot add a
   * NOT NULL column to a table with rows; the migration fills it and every write sets it.
   */
  declared_at: string;
}

/** The public declaration log: one entry per value declared or corrected, hash-chained in seq order. */
export interface DeclarationsTable {
  seq: number;
  gid: number;
  result_date: string;
  value: string;
  previous: string | null;
  declared_at: string;
  prev_hash: string;
  hash: string;
  /** Who declared it: admin-only, never in a public answer. */
  declared_by: number | null;
  /** 1: written by a CSV import (its time is the import's); not hashed, never in a public answer. */
  imported: Generated<number>;
}

export interface ResultHistoryTable {
  history_id: Generated<number>;
  result_id: number;
  old_value: string;
  new_value: string;
  changed_by: number | null;
  changed_at: string;
}

export interface UsermapsTable {
  usermap_id: Generated<number>;
  user_id: number;
  gid: number;
  created_at: string;
}

export interface ContentBlocksTable {
  block_id: Generated<number>;
  title: string;
  slug: string;
  content: string;
  is_active: number;
  created_at: string;
  updated_at: string;
}

/** An image of the media library; its copies are in media_files. */
export interface MediaTable {
  media_id: Generated<number>;
  type: string;
  width: number;
  height: number;
  /** The uploaded file's size. */
  bytes: number;
  created_at: string;
}

/** One stored copy of an image, served at /media/{path}. */
export interface MediaFilesTable {
  /** "{media_id}/{width}.{ext}": the address below /media/, so a read is by primary key. */
  path: string;
  media_id: number;
  width: number;
  type: string;
  etag: string;
  data: Buffer;
}

export interface VisitorsTable {
  session_id: string;
  /** Milliseconds since the epoch (a bigint: PostgreSQL answers it as text). */
  last_seen: number;
}

/** Every write the public site shows, in commit order; the id is the live event's id. */
export interface ChangeLogTable {
  change_id: Generated<number>;
  kind: 'result' | 'ghadi' | 'content' | 'day' | 'results-imported' | 'holiday';
  /** The change's subject as JSON (which ghadi, date or slug). */
  payload: string;
  created_at: string;
}

/** Running totals of visitors ('sessions': every session ever counted, pruned rows included). */
export interface VisitorTotalsTable {
  name: string;
  /** PostgreSQL answers a bigint as text: read it through Number(). */
  total: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface LoginAttemptsTable {
  attempt_id: Generated<number>;
  /** The user name as typed, lower-cased: unknown names are throttled like real ones. */
  account: string;
  /** The client address group (lib/client-address.ts). */
  address: string;
  /** A failure is recorded before the password is checked and becomes a success if it matches. */
  kind: 'failure' | 'success' | 'knock';
  attempted_at: string;
}

/**
 * The login throttle's counts (lib/login-throttle.ts): one row per account, per address group and per
 * pair of them, read by key on every login instead of the log above.
 */
export interface LoginAttemptCountsTable {
  /** JSON: ["account", name], ["address", group] or ["pair", group, name]. */
  counter: string;
  /** JSON: the window's failures as [latest failure's epoch ms, count] per bucket, oldest first. */
  failures: string;
  /** When the row last changed, in epoch ms (a bigint: PostgreSQL answers it as text); pruned by it. */
  touched_at: number;
  /** Pairs only: the latest attempt of any kind, in epoch ms (a bigint, as above). */
  last_attempt: number | null;
  /** Pairs only: whether that attempt succeeded (0/1). */
  last_succeeded: number;
  /** Pairs only: attempts admitted so far, so that a success can tell those admitted after it. */
  admitted: number;
}

/** How a session was signed in: what an admin-only rule on second factors will read. */
export type SignInMethod = 'password' | 'password+totp' | 'passkey';

/**
 * One row per sign-in (decision 0022), named by its token's id and read with the user on every
 * authenticated request: a token without a live row is refused. Instants are ISO text of the app's clock.
 */
export interface SessionsTable {
  /** The token's jti. */
  session_id: string;
  user_id: number;
  method: SignInMethod;
  created_at: string;
  /** Written at most once a minute per session. */
  last_seen_at: string;
  /** When the token expires; the row is pruned after that. */
  expires_at: string;
  /** Set when the session was ended (a sign-out, ended from a list, a password change). */
  ended_at: string | null;
  ip: string;
  /** Capped, without control characters. */
  user_agent: string;
}

/**
 * A user's two-factor state (decision 0023), apart from users so that no user row carries a secret.
 * Never answered, never logged; a dump carries it (a full backup).
 */
export interface UserTwoFactorTable {
  user_id: number;
  /** The base32 TOTP secret in force; null while two-factor is off. */
  secret: string | null;
  /** The secret a setup handed out, until a code of it enables it. */
  pending_secret: string | null;
  /** The latest 30-second step whose code was accepted: codes of it or earlier steps are refused. */
  last_step: number | null;
  enabled_at: string | null;
  updated_at: string;
}

/**
 * A registered passkey (decision 0024). The public key is no secret; the owner's list shows only the
 * name and times.
 */
export interface PasskeysTable {
  passkey_id: Generated<number>;
  user_id: number;
  /** Base64url, as assertions name it; unique. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The signature counter (a bigint: PostgreSQL answers it as text; read it through Number()). */
  counter: number | string;
  /** JSON array of the transports the browser reported. */
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** What a WebAuthn challenge was handed out for. */
export type ChallengePurpose = 'register' | 'authenticate';

/** A challenge of the options routes: single-use, expiring five minutes on (the app's clock). */
export interface WebauthnChallengesTable {
  /** Base64url, as clientDataJSON carries it. */
  challenge: string;
  purpose: ChallengePurpose;
  /** The registering user; null for a sign-in's. */
  user_id: number | null;
  expires_at: string;
}

/** Single-use backup codes, as SHA-256 hex of the code; `used_at` set once, when one is consumed. */
export interface TwoFactorBackupCodesTable {
  code_id: Generated<number>;
  user_id: number;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

/**
 * The Idempotency-Key of each keyed submission that got its answer, per user, with that answer
 * (modules/idempotency): kept at least a day, by the app's clock.
 */
export interface IdempotencyKeysTable {
  user_id: number;
  /** As the client sent it: 1 to 128 printable ASCII characters. */
  key: string;
  /** SHA-256 (hex) of the route and the request's canonical body: the same key with another body is refused. */
  request_hash: string;
  status_code: number;
  /** The answer's body as JSON, sent again as it is to a retry. */
  answer: string;
  /** ISO instant of the app's clock; the row is pruned three days after it. */
  created_at: string;
}

/**
 * The activity trail: who changed what, and every sign-in (modules/activity). Who and what are copied
 * in, so that an entry reads the same after its user or record is renamed or deleted.
 */
export interface ActivityLogTable {
  /** The entry's place in the trail: 1, 2, 3… with no gaps (the migration says why). */
  activity_id: number;
  /** ISO instant of the change; never before the previous entry's. */
  at: string;
  /** Null for a failed login by a name no user has. */
  user_id: number | null;
  user_name: string | null;
  role: 'admin' | 'agent' | null;
  /** One of ACTIVITY_ACTIONS (src/shared/schemas/activity.ts). */
  action: string;
  /** The record's id; null when there is none (an unknown user name, a CSV import). */
  target_id: number | null;
  target_name: string;
  summary: string;
  ip: string;
  user_agent: string;
  /** The entry's place among its user's entries (null without a user), its action's, and both's. */
  user_seq: number | null;
  action_seq: number;
  user_action_seq: number | null;
}

/**
 * Running totals per day of the site's zone (modules/stats): each event adds to its day in the
 * transaction that makes it, so no read counts sessions or results.
 */
export interface DailyStatsTable {
  /** YYYY-MM-DD in SITE_TIMEZONE. */
  date: string;
  /** Visitor sessions first seen that day. */
  visitors: number;
  /** Results first declared that day. */
  declarations: number;
  /** Results given another value that day. */
  corrections: number;
}

/** A perfect subtree of the log's Merkle tree: 2^level leaves from node_index * 2^level (base64 hash). */
export interface LogNodesTable {
  level: number;
  node_index: number;
  hash: string;
}

/** A signed checkpoint of the log's tree: one per size, never replaced. */
export interface LogCheckpointsTable {
  size: number;
  /** Base64 root hash. */
  root: string;
  /** The whole C2SP signed note, as served. */
  note: string;
  signed_at: string;
}

/** A browser's Web Push subscription (decision 0025): its endpoint, RFC 8291 keys and language. */
export interface PushSubscriptionsTable {
  subscription_id: Generated<number>;
  endpoint: string;
  p256dh: string;
  auth: string;
  lang: 'en' | 'hi';
  created_at: string;
  updated_at: string;
}

/** The ghadis a subscription follows. */
export interface PushSubscriptionGhadisTable {
  subscription_id: number;
  gid: number;
}

/** A declaration or correction to announce, written with the result (the outbox). */
export interface NotificationsTable {
  notification_id: Generated<number>;
  gid: number;
  result_date: string;
  value: string;
  /** 1 for a correction. */
  corrected: number;
  declared_at: string;
  /** pending until fanned out into deliveries, then fanned. */
  state: 'pending' | 'fanned';
  /** The last subscription fanned out so far (fanned in steps), or null before the first step. */
  fanned_through: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: string;
}

/** One notification to one subscription (push) or to the Telegram chat. */
export interface NotificationDeliveriesTable {
  delivery_id: Generated<number>;
  notification_id: number;
  channel: 'push' | 'telegram';
  subscription_id: number | null;
  state: 'pending' | 'sent' | 'failed' | 'gone' | 'superseded';
  attempts: number;
  /** ISO: not claimed before. */
  next_attempt_at: string;
  /** ISO: claimed by a sender until then; null when nobody holds it. */
  lease_until: string | null;
  created_at: string;
  finished_at: string | null;
}

/** The Telegram message a ghadi's day was announced with: a correction edits it. */
export interface TelegramMessagesTable {
  gid: number;
  result_date: string;
  message_id: number;
  sent_at: string;
}

export interface DatabaseSchema {
  users: UsersTable;
  ghadis: GhadisTable;
  holidays: HolidaysTable;
  pending_declarations: PendingDeclarationsTable;
  results: ResultsTable;
  result_history: ResultHistoryTable;
  declarations: DeclarationsTable;
  usermaps: UsermapsTable;
  content_blocks: ContentBlocksTable;
  media: MediaTable;
  media_files: MediaFilesTable;
  visitors: VisitorsTable;
  settings: SettingsTable;
  change_log: ChangeLogTable;
  visitor_totals: VisitorTotalsTable;
  login_attempts: LoginAttemptsTable;
  login_attempt_counts: LoginAttemptCountsTable;
  sessions: SessionsTable;
  user_two_factor: UserTwoFactorTable;
  two_factor_backup_codes: TwoFactorBackupCodesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  idempotency_keys: IdempotencyKeysTable;
  activity_log: ActivityLogTable;
  daily_stats: DailyStatsTable;
  log_nodes: LogNodesTable;
  log_checkpoints: LogCheckpointsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_subscription_ghadis: PushSubscriptionGhadisTable;
  notifications: NotificationsTable;
  notification_deliveries: NotificationDeliveriesTable;
  telegram_messages: TelegramMessagesTable;
}
