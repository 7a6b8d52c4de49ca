import type { LoginAnswer, LoginInput, UserType } from '../../../shared/schemas/users.js';
import { TooManyRequestsError, UnauthorizedError } from '../../errors.js';
import { clientGroup } from '../../lib/client-address.js';
import type { Now } from '../../lib/clock.js';
import type { AttemptVerdict, LoginThrottle } from '../../lib/login-throttle.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import type { TokenService } from '../../lib/tokens.js';
import type { Activity, ActivityRecorder, Client, Who } from '../activity/activity-recorder.js';
import type { UserRow, UsersRepository } from '../users/users-repository.js';
import { toUserRecord } from '../users/users-service.js';
import type { LoginAttemptsRepository } from './login-attempts-repository.js';
import type { SessionsRepository } from './sessions-repository.js';

export interface AuthenticatedUser {
  userId: number;
  userType: UserType;
  username: string;
  /** The token the request came with: its id and expiry (epoch seconds), so a logout can end it. */
  session: { tokenId: string; expiresAt: number };
}

export interface SessionDependencies {
  sessions: SessionsRepository;
  users: UsersRepository;
  attempts: LoginAttemptsRepository;
  throttle: LoginThrottle;
  passwords: PasswordHasher;
  tokens: TokenService;
  /** The login throttle's time. */
  now: Now;
  activity: ActivityRecorder;
}

const LOGIN_FAILED = 'Invalid username or password';

/** A sign-in's entry: the account tried (its user, or the name as typed when no account has it). */
function signInActivity(
  action: 'login' | 'login_failed' | 'logout',
  client: Client,
  row: Pick<UserRow, 'user_id' | 'username' | 'user_type'> | undefined,
  attempted: string,
  summary: string,
): { who: Who; activity: Activity } {
  const who: Who = row
    ? { ...client, userId: row.user_id, username: row.username, userType: row.user_type }
    : { ...client, userId: null };
  const target = row ? { id: row.user_id, name: row.username } : { id: null, name: attempted };
  return { who, activity: { action, target, summary } };
}

function tooManyAttempts(verdict: Extract<AttemptVerdict, { admit: false }>): TooManyRequestsError {
  const wait = verdict.retryAfterSeconds;
  const message =
    verdict.reason === 'account'
      ? `This account has had many failed logins. Try again in ${wait} second(s).`
      : `Too many failed login attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`;
  return new TooManyRequestsError(message, wait);
}

export class SessionService {
  constructor(private readonly deps: SessionDependencies) {}

  /**
   * The user a token belongs to, read afresh on every request (with the token's revocation and the
   * signing key's generation, in the same query) so that a logout, a deactivated, deleted or
   * re-passworded account, or a replaced key (rotate-secret, db:import) ends it at once.
   */
  async authenticate(token: string): Promise<AuthenticatedUser | null> {
    const { tokens, sessions } = this.deps;
    const claims = await tokens.verify(token);
    if (!claims) return null;
    const row = await sessions.findSessionUser(claims.userId, claims.tokenId);
    if (row?.is_active !== 1 || row.token_version !== claims.version || row.revoked_token !== null)
      return null;
    if (!tokens.isCurrentKey(claims, row.key_generation)) return null;
    return {
      userId: row.user_id,
      userType: row.user_type,
      username: row.username,
      session: { tokenId: claims.tokenId, expiresAt: claims.expiresAt },
    };
  }

  async login(input: LoginInput, client: Client): Promise<LoginAnswer> {
    const { attempts, throttle, users, passwords, tokens, activity } = this.deps;
    const key = { account: input.UserName.toLowerCase(), address: clientGroup(client.ip) };
    // Counted before the password is checked, so parallel attempts cannot outrun the count.
    const admission = await attempts.admit(key, this.deps.now(), throttle);
    if (!admission.admit) throw tooManyAttempts(admission);

    const row = await users.findByUsername(input.UserName);
    const passwordMatches = row
      ? await passwords.verify(row.password_hash, input.Password)
      : await passwords.verifyNothing(input.Password).then(() => false);
    // The attempt stays recorded as a failure.
    if (!row || !passwordMatches || row.is_active !== 1) {
      const why = !row ? 'unknown user name' : !passwordMatches ? 'wrong password' : 'account inactive';
      const failed = signInActivity('login_failed', client, row, input.UserName, why);
      await activity.recordAlone(failed.who, failed.activity);
      throw new UnauthorizedError(LOGIN_FAILED);
    }
    const signedIn = signInActivity('login', client, row, input.UserName, '');
    await attempts.recordSuccess(admission, key, throttle, (db) =>
      activity.record(db, signedIn.who, signedIn.activity),
    );

    const token = await tokens.sign({ userId: row.user_id, version: row.token_version });
    const { createdAt: _created, updatedAt: _updated, ...user } = toUserRecord(row);
    return { success: true, token, user };
  }

  /** Ends the caller's token only: the user's other sessions (another device) go on. */
  async logout(user: AuthenticatedUser & Client): Promise<void> {
    const expiresAt = new Date(user.session.expiresAt * 1000).toISOString();
    const row = { user_id: user.userId, username: user.username, user_type: user.userType };
    const client = { ip: user.ip, userAgent: user.userAgent };
    const signedOut = signInActivity('logout', client, row, user.username, '');
    await this.deps.sessions.revoke(user.session.tokenId, expiresAt, new Date().toISOString(), (db) =>
      this.deps.activity.record(db, signedOut.who, signedOut.activity),
    );
  }
}
