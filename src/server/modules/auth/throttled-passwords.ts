import type { Executor } from '../../db/database.js';
import { TooManyRequestsError } from '../../errors.js';
import { clientGroup } from '../../lib/client-address.js';
import type { Now } from '../../lib/clock.js';
import type { AttemptVerdict, LoginThrottle } from '../../lib/login-throttle.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import type { AdmittedAttempt, AttemptKey, LoginAttemptsRepository } from './login-attempts-repository.js';

export interface ThrottledPasswordsDependencies {
  attempts: LoginAttemptsRepository;
  throttle: LoginThrottle;
  passwords: PasswordHasher;
  /** The login throttle's time. */
  now: Now;
}

function tooManyAttempts(verdict: Extract<AttemptVerdict, { admit: false }>): TooManyRequestsError {
  const wait = verdict.retryAfterSeconds;
  const message =
    verdict.reason === 'account'
      ? `This account has had many failed logins. Try again in ${wait} second(s).`
      : `Too many failed login attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`;
  return new TooManyRequestsError(message, wait);
}

/** An attempt at an account's password that the throttle let through, counted as a failure so far. */
export class PasswordAttempt {
  constructor(
    private readonly deps: ThrottledPasswordsDependencies,
    private readonly key: AttemptKey,
    private readonly admission: AdmittedAttempt,
  ) {}

  /** Whether `password` matches `hash`; without a hash (no such account) it costs the same and fails. */
  verify(hash: string | undefined, password: string): Promise<boolean> {
    const { passwords } = this.deps;
    return hash === undefined
      ? passwords.verifyNothing(password).then(() => false)
      : passwords.verify(hash, password);
  }

  /** The password matched: the attempt stops counting, and `alsoWrite` runs in the same transaction. */
  succeed(alsoWrite?: (db: Executor) => Promise<void>): Promise<void> {
    return this.deps.attempts.recordSuccess(this.admission, this.key, this.deps.throttle, alsoWrite);
  }
}

/**
 * Every check of a password against an account (a sign-in, the current password of a change) goes
 * through the login throttle: counted before the check, so that parallel guesses cannot outrun the
 * count, and a wrong one stays counted as a failed sign-in of that account.
 */
export class ThrottledPasswords {
  constructor(private readonly deps: ThrottledPasswordsDependencies) {}

  /** Counts an attempt on `account` (as typed) from `ip`; 429 when the throttle refuses it. */
  async admit(account: string, ip: string): Promise<PasswordAttempt> {
    const key = { account: account.toLowerCase(), address: clientGroup(ip) };
    const admission = await this.deps.attempts.admit(key, this.deps.now(), this.deps.throttle);
    if (!admission.admit) throw tooManyAttempts(admission);
    return new PasswordAttempt(this.deps, key, admission);
  }
}
