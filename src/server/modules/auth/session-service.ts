import type { LoginAnswer, LoginInput, UserType } from '../../../shared/schemas/users.js';
import { TooManyRequestsError, UnauthorizedError } from '../../errors.js';
import type { LoginThrottle } from '../../lib/login-throttle.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import type { TokenService } from '../../lib/tokens.js';
import type { UsersRepository } from '../users/users-repository.js';
import { toUserRecord } from '../users/users-service.js';

export interface AuthenticatedUser {
  userId: number;
  userType: UserType;
  username: string;
}

const LOGIN_FAILED = 'Invalid username or password';

export class SessionService {
  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly throttle: LoginThrottle,
  ) {}

  /**
   * The user a token belongs to, read afresh on every request so that a deactivated,
   * deleted or re-passworded account loses access at once.
   */
  async authenticate(token: string): Promise<AuthenticatedUser | null> {
    const claims = await this.tokens.verify(token);
    if (!claims) return null;
    const row = await this.users.findById(claims.userId);
    if (row?.is_active !== 1 || row.token_version !== claims.version) return null;
    return { userId: row.user_id, userType: row.user_type, username: row.username };
  }

  async login(input: LoginInput, clientAddress: string): Promise<LoginAnswer> {
    const accountKey = `account:${input.UserName.toLowerCase()}`;
    const addressKey = `address:${clientAddress}`;
    const wait = Math.max(
      this.throttle.retryAfterSeconds(accountKey),
      this.throttle.retryAfterSeconds(addressKey),
    );
    if (wait > 0) {
      throw new TooManyRequestsError(
        `Too many failed login attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`,
        wait,
      );
    }

    const row = await this.users.findByUsername(input.UserName);
    const passwordMatches = row
      ? await this.passwords.verify(row.password_hash, input.Password)
      : await this.passwords.verifyNothing(input.Password).then(() => false);
    if (!row || !passwordMatches || row.is_active !== 1) {
      this.throttle.recordFailure(accountKey);
      this.throttle.recordFailure(addressKey);
      throw new UnauthorizedError(LOGIN_FAILED);
    }
    this.throttle.clear(accountKey);

    const token = await this.tokens.sign({ userId: row.user_id, version: row.token_version });
    const { createdAt: _created, updatedAt: _updated, ...user } = toUserRecord(row);
    return { success: true, token, user };
  }
}
