import type { UserCreateInput, UserRecord, UserUpdateInput } from '../../../shared/schemas/users.js';
import { isUniqueViolation } from '../../db/database.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import { recordIds } from '../../lib/record-ids.js';
import type { UserPatch, UserRow, UsersRepository } from './users-repository.js';

export function toUserRecord(row: UserRow): UserRecord {
  return {
    ...recordIds(row.user_id),
    User_Id: row.user_id,
    UserName: row.username,
    DisplayName: row.display_name,
    Email: row.email,
    UserType: row.user_type,
    userType: row.user_type,
    isActive: row.is_active === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const DUPLICATE_USERNAME = 'Username already exists';

export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
  ) {}

  async list(): Promise<UserRecord[]> {
    return (await this.users.list()).map(toUserRecord);
  }

  countAgents(): Promise<number> {
    return this.users.countAgents();
  }

  async create(input: UserCreateInput): Promise<UserRecord> {
    const now = new Date().toISOString();
    try {
      const userId = await this.users.insert({
        username: input.UserName,
        display_name: input.DisplayName,
        email: input.Email,
        password_hash: await this.passwords.hash(input.Password),
        user_type: 'agent',
        is_active: input.isActive ? 1 : 0,
        created_at: now,
        updated_at: now,
      });
      return this.get(userId);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(DUPLICATE_USERNAME);
      throw error;
    }
  }

  async update(userId: number, input: UserUpdateInput): Promise<UserRecord> {
    // Hashed before the lock is taken: it is the slow part.
    const passwordHash = input.Password ? await this.passwords.hash(input.Password) : undefined;
    try {
      await this.users.withAdminsLocked(async (users) => {
        const existing = await requireUser(users, userId);
        const userType = input.UserType ?? existing.user_type;
        const isActive = input.isActive ?? existing.is_active === 1;
        if (existing.user_type === 'agent' && userType === 'admin') {
          throw new BadRequestError('UserType: An agent cannot be made an admin');
        }
        const losesAdmin =
          existing.user_type === 'admin' && existing.is_active === 1 && (userType !== 'admin' || !isActive);
        if (losesAdmin) await ensureAnotherActiveAdmin(users, 'deactivated or demoted');

        const patch: UserPatch = {
          username: input.UserName,
          display_name: input.DisplayName,
          email: input.Email,
          user_type: userType,
          is_active: isActive ? 1 : 0,
          updated_at: new Date().toISOString(),
        };
        if (passwordHash) patch.password_hash = passwordHash;
        const revokeTokens = Boolean(passwordHash) || (existing.is_active === 1 && !isActive);
        await users.update(userId, patch, revokeTokens);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(DUPLICATE_USERNAME);
      throw error;
    }
    return this.get(userId);
  }

  async delete(userId: number): Promise<void> {
    await this.users.withAdminsLocked(async (users) => {
      const existing = await requireUser(users, userId);
      if (existing.user_type === 'admin' && existing.is_active === 1)
        await ensureAnotherActiveAdmin(users, 'deleted');
      await users.softDelete(userId, new Date().toISOString());
    });
  }

  private async get(userId: number): Promise<UserRecord> {
    return toUserRecord(await requireUser(this.users, userId));
  }
}

async function requireUser(users: UsersRepository, userId: number): Promise<UserRow> {
  const row = await users.findById(userId);
  if (!row) throw new NotFoundError('User not found');
  return row;
}

/** Call with the repository of withAdminsLocked, so that the count still holds when the write lands. */
async function ensureAnotherActiveAdmin(users: UsersRepository, action: string): Promise<void> {
  if ((await users.countActiveAdmins()) <= 1) {
    throw new ConflictError(`The last active admin cannot be ${action}`);
  }
}
