import type { FastifyBaseLogger } from 'fastify';
import {
  TWO_FACTOR_INVALID_CODE_MESSAGE,
  TWO_FACTOR_REQUIRED_MESSAGE,
} from '../../../shared/schemas/two-factor.js';
import type { LoginAnswer, LoginInput, UserType } from '../../../shared/schemas/users.js';
import type { Executor } from '../../db/database.js';
import type { DatabaseHealth } from '../../db/database-health.js';
import type { SignInMethod } from '../../db/schema.js';
import { UnauthorizedError } from '../../errors.js';
import type { Now } from '../../lib/clock.js';
import { maskedName, plainText } from '../../lib/plain-text.js';
import type { TokenService } from '../../lib/tokens.js';
import {
  type Activity,
  type ActivityRecorder,
  type Client,
  IP_MAX,
  USER_AGENT_MAX,
  type Who,
} from '../activity/activity-recorder.js';
import type { UserRow, UsersRepository } from '../users/users-repository.js';
import { toUserRecord } from '../users/users-service.js';
import type { SessionClock, SessionsRepository } from './sessions-repository.js';
import type { PasswordAttempt, ThrottledPasswords } from './throttled-passwords.js';
import type { SecondFactor, TwoFactorService } from './two-factor-service.js';

export interface AuthenticatedUser {
  userId: number;
  userType: UserType;
  username: string;
  /** A first admin still on the generated password: only their own account's routes answer. */
  passwordChangeRequired: boolean;
  /**
   * The session the token names: its id, how it was signed in (what a rule on second factors will
   * read), when it was last seen (ISO), its token's expiry (epoch s).
   */
  session: { id: string; method: SignInMethod; seenAt: string; expiresAt: number };
}

export interface SessionDependencies {
  sessions: SessionsRepository;
  users: UsersRepository;
  passwords: ThrottledPasswords;
  /** The second factor of an account that has two-factor on. */
  twoFactor: TwoFactorService;
  tokens: TokenService;
  /**
   * The app's clock: the sessions' stored times and the login throttle's. Expiry is the token's,
   * by the system clock (decision 0022).
   */
  now: Now;
  activity: ActivityRecorder;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** Logs the database's being away once per outage, instead of each failed last-seen write. */
  health?: DatabaseHealth;
}

/** A session's last_seen_at is kept to the minute: at most one write per session and minute. */
export const SESSION_SEEN_EVERY_MS = 60_000;

const LOGIN_FAILED = 'Invalid username or password';

const iso = (at: number) => new Date(at).toISOString();

const backupSummary = (left: number) => `with a backup code (${left} left)`;

/**
 * A sign-in's entry: the account tried, or, when no account has the name, a masked form of it (its
 * first characters and length: a password typed into the name box must not land in the trail).
 */
export function signInActivity(
  action: 'login' | 'login_failed' | 'logout',
  client: Client,
  row: Pick<UserRow, 'user_id' | 'username' | 'user_type'> | undefined,
  attempted: string,
  summary: string,
): { who: Who; activity: Activity } {
  const who: Who = row
    ? { ...client, userId: row.user_id, username: row.username, userType: row.user_type }
    : { ...client, userId: null };
  const target = row ? { id: row.user_id, name: row.username } : { id: null, name: maskedName(attempted) };
  return { who, activity: { action, target, summary } };
}

export class SessionService {
  /** Sessions whose last-seen write is under way in this process: a burst of requests makes one. */
  private readonly touching = new Set<string>();

  constructor(private readonly deps: SessionDependencies) {}

  private clock(): SessionClock {
    return { at: iso(this.deps.now()), tokenNow: new Date().toISOString() };
  }

  /**
   * The user a token belongs to, read afresh on every request with the token's session and the
   * signing key's generation, in one query, so that an ended session (on any process), a
   * deactivated, deleted or re-passworded account, or a replaced key (rotate-secret, db:import) ends
   * it at once.
   */
  async authenticate(token: string): Promise<AuthenticatedUser | null> {
    const { tokens, sessions } = this.deps;
    const claims = await tokens.verify(token);
    if (!claims) return null;
    const row = await sessions.findSessionUser(claims.userId, claims.tokenId);
    if (row?.is_active !== 1 || row.token_version !== claims.version) return null;
    // Its expiry is the token's, which jose has checked.
    if (row.session_id === null || row.ended_at !== null) return null;
    if (row.session_seen_at === null || row.method === null) return null;
    if (!tokens.isCurrentKey(claims, row.key_generation)) return null;
    return {
      userId: row.user_id,
      userType: row.user_type,
      username: row.username,
      passwordChangeRequired: row.password_change_required === 1,
      session: {
        id: claims.tokenId,
        method: row.method,
        seenAt: row.session_seen_at,
        expiresAt: claims.expiresAt,
      },
    };
  }

  /**
   * The session made a request now. Writes its last_seen_at in the background when the stored one is
   * a minute old (read with the session, so most requests need no query at all); the write is
   * conditional, so that processes share the once a minute. Returns that write (true once stored), or
   * null when none was needed: for tests, since the request never waits for it.
   */
  seen(user: AuthenticatedUser): Promise<boolean> | null {
    const at = this.deps.now();
    const { id, seenAt } = user.session;
    if (at - Date.parse(seenAt) < SESSION_SEEN_EVERY_MS || this.touching.has(id)) return null;
    this.touching.add(id);
    return this.deps.sessions
      .touch(id, iso(at), iso(at - SESSION_SEEN_EVERY_MS))
      .catch((error: unknown) => {
        if (!this.deps.health?.absorbs(error))
          this.deps.log.error(
            { err: error, userId: user.userId },
            "recording a session's last-seen time failed",
          );
        return false;
      })
      .finally(() => this.touching.delete(id));
  }

  async login(input: LoginInput, client: Client): Promise<LoginAnswer> {
    const { passwords, users, activity } = this.deps;
    // Counted before the password is checked, so parallel attempts cannot outrun the count.
    const attempt = await passwords.admit(input.UserName, client.ip);
    const row = await users.findByUsername(input.UserName);
    const passwordMatches = await attempt.verify(row?.password_hash, input.Password);
    // The attempt stays recorded as a failure.
    if (!row || !passwordMatches || row.is_active !== 1) {
      const why = !row ? 'unknown user name' : !passwordMatches ? 'wrong password' : 'account inactive';
      const failed = signInActivity('login_failed', client, row, input.UserName, why);
      await activity.recordAlone(failed.who, failed.activity);
      throw new UnauthorizedError(LOGIN_FAILED);
    }
    const second = await this.secondFactor(row, input, client);
    const method = second ? 'password+totp' : 'password';
    const summary = !second
      ? ''
      : second.kind === 'totp'
        ? 'with a two-factor code'
        : backupSummary(second.left);
    return this.signedIn(row, client, method, summary, attempt);
  }

  /**
   * The answer of a sign-in whose checks all passed (a password and its second factor, or a passkey):
   * a new token, and its session stored with the activity entry in the transaction that takes the
   * attempt out of the throttle's count.
   */
  async signedIn(
    row: UserRow,
    client: Client,
    method: SignInMethod,
    summary: string,
    attempt: Pick<PasswordAttempt, 'succeed'>,
  ): Promise<LoginAnswer> {
    const token = await this.open(row, client, method, summary, (write) => attempt.succeed(write));
    const { createdAt: _created, updatedAt: _updated, ...user } = toUserRecord(row);
    const flagged = row.password_change_required === 1 ? { passwordChangeRequired: true as const } : {};
    return { success: true, token, user: { ...user, ...flagged } };
  }

  /**
   * With two-factor on, the code that must come with a right password: spent here (a code is good
   * once). Without one, or with a wrong one, a 401 with `twoFactorRequired` and no token, and the
   * attempt stays counted by the throttle as a failed sign-in: a password alone does not sign in, and
   * clearing the count there would let a password holder guess codes without limit (decision 0023).
   * Null when two-factor is off (a code sent then is ignored).
   */
  private async secondFactor(row: UserRow, input: LoginInput, client: Client): Promise<SecondFactor | null> {
    const { twoFactor, activity } = this.deps;
    if (!(await twoFactor.isOn(row.user_id))) return null;
    if (input.Code === undefined)
      throw new UnauthorizedError(TWO_FACTOR_REQUIRED_MESSAGE, { twoFactorRequired: true });
    const second = await twoFactor.spend(row.user_id, input.Code);
    if (second) return second;
    const failed = signInActivity('login_failed', client, row, row.username, 'wrong two-factor code');
    await activity.recordAlone(failed.who, failed.activity);
    throw new UnauthorizedError(TWO_FACTOR_INVALID_CODE_MESSAGE, { twoFactorRequired: true });
  }

  /**
   * A new token and its session, stored with the sign-in's activity entry by `commit` (the transaction
   * that also takes the attempt out of the throttle's count).
   */
  private async open(
    row: UserRow,
    client: Client,
    method: SignInMethod,
    summary: string,
    commit: (write: (db: Executor) => Promise<void>) => Promise<void>,
  ): Promise<string> {
    const { tokens, sessions, activity } = this.deps;
    const signed = await tokens.sign({ userId: row.user_id, version: row.token_version });
    const now = this.deps.now();
    const signedIn = signInActivity('login', client, row, row.username, summary);
    await commit(async (db) => {
      await sessions.open(
        db,
        {
          session_id: signed.tokenId,
          user_id: row.user_id,
          method,
          created_at: iso(now),
          last_seen_at: iso(now),
          expires_at: iso(signed.expiresAt * 1000),
          ended_at: null,
          ip: plainText(client.ip, IP_MAX),
          user_agent: plainText(client.userAgent, USER_AGENT_MAX),
        },
        new Date().toISOString(),
      );
      await activity.record(db, signedIn.who, signedIn.activity);
    });
    return signed.token;
  }

  /** Ends the caller's session only: the user's other sessions (another device) go on. */
  async logout(user: AuthenticatedUser & Client): Promise<void> {
    const row = { user_id: user.userId, username: user.username, user_type: user.userType };
    const client = { ip: user.ip, userAgent: user.userAgent };
    const signedOut = signInActivity('logout', client, row, user.username, '');
    await this.deps.sessions.transaction(async (trx) => {
      await this.deps.sessions.end(trx, user.userId, this.clock(), { only: user.session.id });
      await this.deps.activity.record(trx, signedOut.who, signedOut.activity);
    });
  }
}
