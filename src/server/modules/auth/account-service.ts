import type { MeRecord, OwnPasswordInput, SessionRecord } from '../../../shared/schemas/account.js';
import type { Executor } from '../../db/database.js';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../errors.js';
import type { Now } from '../../lib/clock.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import type { Activity, ActivityRecorder, Actor } from '../activity/activity-recorder.js';
import type { FirstAdminPassword } from '../users/first-admin-password.js';
import type { UserRow, UsersRepository } from '../users/users-repository.js';
import { toUserRecord } from '../users/users-service.js';
import type { PasskeyService } from './passkey-service.js';
import type { AuthenticatedUser } from './session-service.js';
import type { SessionClock, SessionRow, SessionsRepository } from './sessions-repository.js';
import type { ThrottledPasswords } from './throttled-passwords.js';
import type { TwoFactorService } from './two-factor-service.js';

export interface AccountDependencies {
  sessions: SessionsRepository;
  users: UsersRepository;
  /** The current password of a change is checked under the login throttle. */
  passwords: ThrottledPasswords;
  hasher: PasswordHasher;
  firstAdmin: FirstAdminPassword;
  /** Whether the user has two-factor on, for GET /api/users/me. */
  twoFactor: Pick<TwoFactorService, 'isOn'>;
  /** How many passkeys the user has, for GET /api/users/me. */
  passkeys: Pick<PasskeyService, 'count'>;
  activity: ActivityRecorder;
  now: Now;
}

type Caller = AuthenticatedUser & Actor;

function toSessionRecord(row: SessionRow, current: string): SessionRecord {
  return {
    _id: row.session_id,
    CreatedAt: row.created_at,
    LastSeenAt: row.last_seen_at,
    Ip: row.ip,
    UserAgent: row.user_agent,
    Current: row.session_id === current,
  };
}

const own = (caller: Caller) => ({ id: caller.userId, name: caller.username });

/** `2 sessions ended`, `1 other session ended`. */
const sessionsEnded = (count: number, other = false) =>
  `${count} ${other ? 'other ' : ''}session${count === 1 ? '' : 's'} ended`;

/**
 * A signed-in user's own account (/api/users/me/...): who they are, their sessions, their password;
 * and an admin's ending of another user's sessions. Every change is recorded in the activity trail
 * in its own transaction.
 */
export class AccountService {
  constructor(private readonly deps: AccountDependencies) {}

  /** Stored times by the app's clock; expiry by the tokens' (see SessionClock). */
  private clock(): SessionClock {
    return { at: new Date(this.deps.now()).toISOString(), tokenNow: new Date().toISOString() };
  }

  private async caller(user: AuthenticatedUser): Promise<UserRow> {
    // The access check read the account a moment ago: gone since, the session is over.
    const row = await this.deps.users.findById(user.userId);
    if (!row) throw new UnauthorizedError('Session expired or invalid; please log in again');
    return row;
  }

  /** Ends sessions of `target` and records it, in one transaction; answers how many ended. */
  private endSessions(
    actor: Actor,
    target: { id: number; name: string },
    which: Parameters<SessionsRepository['end']>[3],
    summary: (ended: number) => string,
  ): Promise<number> {
    return this.deps.sessions.transaction(async (trx) => {
      const ended = await this.deps.sessions.end(trx, target.id, this.clock(), which);
      if (ended > 0)
        await this.deps.activity.record(trx, actor, {
          action: 'session_end',
          target,
          summary: summary(ended),
        });
      return ended;
    });
  }

  async me(user: AuthenticatedUser): Promise<MeRecord> {
    const row = await this.caller(user);
    const { createdAt: _created, updatedAt: _updated, ...record } = toUserRecord(row);
    const flagged = row.password_change_required === 1 ? { passwordChangeRequired: true as const } : {};
    const twoFactor = await this.deps.twoFactor.isOn(row.user_id);
    const passkeys = await this.deps.passkeys.count(row.user_id);
    return { ...record, ...flagged, TwoFactor: twoFactor, Passkeys: passkeys };
  }

  async sessions(user: AuthenticatedUser): Promise<SessionRecord[]> {
    const rows = await this.deps.sessions.listLive(user.userId, this.clock().tokenNow);
    return rows.map((row) => toSessionRecord(row, user.session.id));
  }

  /** One of the caller's own live sessions (the current one too); any other id is a 404. */
  async endSession(caller: Caller, sessionId: string): Promise<void> {
    const current = sessionId === caller.session.id;
    const ended = await this.endSessions(caller, own(caller), { only: sessionId }, () =>
      current ? 'this session ended' : 'another session ended',
    );
    if (ended === 0) throw new NotFoundError('Session not found');
  }

  async endOtherSessions(caller: Caller): Promise<number> {
    return this.endSessions(caller, own(caller), { except: caller.session.id }, (ended) =>
      sessionsEnded(ended, true),
    );
  }

  /** An admin's: every session of the user, the caller's own included when it is theirs. */
  async endAllSessions(admin: Actor, userId: number): Promise<number> {
    const row = await this.deps.users.findById(userId);
    if (!row) throw new NotFoundError('User not found');
    const target = { id: row.user_id, name: row.username };
    return this.endSessions(admin, target, 'all', (ended) => `every session: ${sessionsEnded(ended)}`);
  }

  /**
   * The caller's own password: the current one is checked under the login throttle (a wrong one is
   * a failed sign-in of the account); the new one ends every other session of the user, the one
   * that changed it goes on, and a first admin's generated password (and its file) is done with.
   */
  async changePassword(caller: Caller, input: OwnPasswordInput): Promise<number> {
    const { passwords, hasher, users, sessions, activity } = this.deps;
    const row = await this.caller(caller);
    const target = { id: row.user_id, name: row.username };
    const attempt = await passwords.admit(row.username, caller.ip);
    if (!(await attempt.verify(row.password_hash, input.CurrentPassword))) {
      const failed: Activity = {
        action: 'login_failed',
        target,
        summary: 'wrong current password (password change)',
      };
      await activity.recordAlone(caller, failed);
      throw new BadRequestError('CurrentPassword: Is not the current password');
    }
    const passwordHash = await hasher.hash(input.NewPassword);
    let ended = 0;
    await attempt.succeed(async (db: Executor) => {
      const clock = this.clock();
      await users.changePassword(db, row.user_id, passwordHash, clock.at);
      ended = await sessions.end(db, row.user_id, clock, { except: caller.session.id });
      const summary = `password changed; ${sessionsEnded(ended, true)}`;
      await activity.record(db, caller, { action: 'password_change', target, summary });
    });
    if (row.password_change_required === 1) this.deps.firstAdmin.forget();
    return ended;
  }
}
