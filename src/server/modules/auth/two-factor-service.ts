import {
  TWO_FACTOR_ALREADY_ON_MESSAGE,
  TWO_FACTOR_NO_PENDING_MESSAGE,
  TWO_FACTOR_NOT_ON_MESSAGE,
  TWO_FACTOR_WRONG_CODE_MESSAGE,
  TWO_FACTOR_WRONG_PASSWORD_MESSAGE,
  type TwoFactorDisableInput,
  type TwoFactorSetupAnswer,
} from '../../../shared/schemas/two-factor.js';
import { SITE_NAME } from '../../../shared/site.js';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../errors.js';
import { backupCodeHash, newBackupCodes } from '../../lib/backup-codes.js';
import type { Now } from '../../lib/clock.js';
import { matchingStep, newTotpSecret, totpUrl } from '../../lib/totp.js';
import type { ActivityRecorder, Actor } from '../activity/activity-recorder.js';
import type { UserRow, UsersRepository } from '../users/users-repository.js';
import type { AuthenticatedUser } from './session-service.js';
import type { ThrottledPasswords } from './throttled-passwords.js';
import type { TwoFactorRepository } from './two-factor-repository.js';

export interface TwoFactorDependencies {
  repository: TwoFactorRepository;
  users: UsersRepository;
  /** disable's password is checked under the login throttle, as a sign-in's is. */
  passwords: ThrottledPasswords;
  activity: ActivityRecorder;
  /** The app's clock: which 30-second step it is, so that tests choose. */
  now: Now;
}

type Caller = AuthenticatedUser & Actor;

/** What a second factor was: a code of the authenticator app, or a backup code (with how many are left). */
export type SecondFactor = { kind: 'totp' } | { kind: 'backup'; left: number };

const iso = (at: number) => new Date(at).toISOString();

/**
 * Two-factor sign-in (decision 0023): a user's setup, enabling and disabling, an admin's turning it
 * off, and the check of a code at sign-in. The secret leaves the server once, in setup's answer.
 */
export class TwoFactorService {
  constructor(private readonly deps: TwoFactorDependencies) {}

  private async caller(user: AuthenticatedUser): Promise<UserRow> {
    const row = await this.deps.users.findById(user.userId);
    if (!row) throw new UnauthorizedError('Session expired or invalid; please log in again');
    return row;
  }

  isOn(userId: number): Promise<boolean> {
    return this.deps.repository.isOn(userId);
  }

  /** A new secret, pending (not in force) until enable; a second setup replaces the first. */
  async setup(user: AuthenticatedUser): Promise<TwoFactorSetupAnswer> {
    const row = await this.caller(user);
    const secret = newTotpSecret();
    if (!(await this.deps.repository.setPending(row.user_id, secret, iso(this.deps.now()))))
      throw new BadRequestError(TWO_FACTOR_ALREADY_ON_MESSAGE);
    return { success: true, secret, otpauthUrl: totpUrl(secret, SITE_NAME, row.username) };
  }

  /**
   * A code of the pending secret puts it in force and answers ten new backup codes (kept as hashes
   * only). The code's step is recorded as used: it cannot sign in as well.
   */
  async enable(caller: Caller, code: string): Promise<string[]> {
    const { repository, activity } = this.deps;
    const row = await this.caller(caller);
    const state = await repository.find(row.user_id);
    if (state?.secret) throw new BadRequestError(TWO_FACTOR_ALREADY_ON_MESSAGE);
    const pending = state?.pending_secret;
    if (!pending) throw new BadRequestError(TWO_FACTOR_NO_PENDING_MESSAGE);
    const at = this.deps.now();
    const step = matchingStep(pending, code, at, null);
    if (step === null) throw new BadRequestError(TWO_FACTOR_WRONG_CODE_MESSAGE);
    const codes = newBackupCodes();
    const enabled = await repository.transaction(async (trx) => {
      const done = await repository.enable(
        trx,
        row.user_id,
        pending,
        step,
        codes.map(backupCodeHash),
        iso(at),
      );
      if (done)
        await activity.record(trx, caller, {
          action: 'two_factor_enable',
          target: { id: row.user_id, name: row.username },
          summary: `two-factor sign-in turned on; ${codes.length} backup codes issued`,
        });
      return done;
    });
    // Another setup replaced the secret, or another enable took it, meanwhile.
    if (!enabled) throw new BadRequestError(TWO_FACTOR_NO_PENDING_MESSAGE);
    return codes;
  }

  /**
   * Checks a code against the user's secret in force and spends it: a TOTP code's step becomes the
   * last used one (a code of it or of an earlier step is refused from then on), a backup code is
   * marked used. Null when it is wrong, already spent, or two-factor is off. Each spending is one
   * conditional write, so that of two requests with one code, on any processes, one wins.
   */
  async spend(userId: number, code: string): Promise<SecondFactor | null> {
    const { repository } = this.deps;
    const state = await repository.find(userId);
    if (!state?.secret) return null;
    const at = this.deps.now();
    if (/^\d{6}$/.test(code)) {
      const step = matchingStep(state.secret, code, at, state.last_step);
      if (step === null) return null;
      return (await repository.acceptStep(userId, step, iso(at))) ? { kind: 'totp' } : null;
    }
    if (!(await repository.consumeBackupCode(userId, backupCodeHash(code), iso(at)))) return null;
    return { kind: 'backup', left: await repository.backupCodesLeft(userId) };
  }

  /**
   * The user's own turning off: the password (under the login throttle: a wrong one is a failed
   * sign-in of the account) and a code or a backup code (a wrong one likewise).
   */
  async disable(caller: Caller, input: TwoFactorDisableInput): Promise<void> {
    const { passwords, activity, repository } = this.deps;
    const row = await this.caller(caller);
    const target = { id: row.user_id, name: row.username };
    if (!(await repository.isOn(row.user_id))) throw new BadRequestError(TWO_FACTOR_NOT_ON_MESSAGE);
    const attempt = await passwords.admit(row.username, caller.ip);
    const failed = async (summary: string, message: string) => {
      await activity.recordAlone(caller, { action: 'login_failed', target, summary });
      return new BadRequestError(message);
    };
    if (!(await attempt.verify(row.password_hash, input.Password)))
      throw await failed('wrong password (turning two-factor off)', TWO_FACTOR_WRONG_PASSWORD_MESSAGE);
    if (!(await this.spend(row.user_id, input.Code)))
      throw await failed('wrong two-factor code (turning two-factor off)', TWO_FACTOR_WRONG_CODE_MESSAGE);
    await attempt.succeed(async (db) => {
      await repository.disable(db, row.user_id, iso(this.deps.now()));
      await activity.record(db, caller, {
        action: 'two_factor_disable',
        target,
        summary: 'two-factor sign-in turned off',
      });
    });
  }

  /** An admin's turning off of a user's two-factor (a lost phone): recorded in the activity trail. */
  async disableFor(admin: Actor, userId: number): Promise<void> {
    const { users, repository, activity } = this.deps;
    const row = await users.findById(userId);
    if (!row) throw new NotFoundError('User not found');
    const target = { id: row.user_id, name: row.username };
    const done = await repository.transaction(async (trx) => {
      const wasOn = await repository.disable(trx, row.user_id, iso(this.deps.now()));
      if (wasOn)
        await activity.record(trx, admin, {
          action: 'two_factor_disable',
          target,
          summary: `two-factor sign-in turned off by ${admin.username}`,
        });
      return wasOn;
    });
    if (!done) throw new BadRequestError(TWO_FACTOR_NOT_ON_MESSAGE);
  }
}
