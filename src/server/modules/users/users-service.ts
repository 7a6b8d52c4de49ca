import type { UserCreateInput, UserRecord, UserUpdateInput } from '../../../shared/schemas/users.js';
import { type Executor, isUniqueViolation } from '../../db/database.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import { recordIds } from '../../lib/record-ids.js';
import type { ActivityRecorder, Actor, Recorded } from '../activity/activity-recorder.js';
import { changedFields, fieldValues, type Shown, summaryOf } from '../activity/activity-summary.js';
import type { FirstAdminPassword } from './first-admin-password.js';
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

/** A user's fields as the activity trail names them: the API's, never the password or its hash. */
function shownFields(row: Pick<UserRow, 'username' | 'display_name' | 'email' | 'user_type' | 'is_active'>) {
  return {
    UserName: row.username,
    DisplayName: row.display_name,
    Email: row.email,
    UserType: row.user_type,
    isActive: row.is_active === 1,
  } satisfies Record<string, Shown>;
}

type UserWrite<T> = (users: UsersRepository, trx: Executor) => Promise<Recorded<T>>;

export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly activity: ActivityRecorder,
    private readonly firstAdmin: FirstAdminPassword,
  ) {}

  /**
   * Every change of a user goes through here: in one transaction (holding the active-admins lock
   * when it could leave none) with the activity entry that records it.
   */
  private async write<T>(actor: Actor, lock: 'admins' | 'none', work: UserWrite<T>): Promise<T> {
    const recorded: UserWrite<T> = async (users, trx) => {
      const done = await work(users, trx);
      await this.activity.record(trx, actor, done.activity);
      return done;
    };
    const done = await (lock === 'admins'
      ? this.users.withAdminsLocked(recorded)
      : this.users.withTransaction(recorded));
    return done.value;
  }

  async list(): Promise<UserRecord[]> {
    return (await this.users.list()).map(toUserRecord);
  }

  countAgents(): Promise<number> {
    return this.users.countAgents();
  }

  async create(actor: Actor, input: UserCreateInput): Promise<UserRecord> {
    const now = new Date().toISOString();
    const passwordHash = await this.passwords.hash(input.Password);
    try {
      const userId = await this.write(actor, 'none', async (users) => {
        const row = {
          username: input.UserName,
          display_name: input.DisplayName,
          email: input.Email,
          password_hash: passwordHash,
          user_type: 'agent' as const,
          is_active: input.isActive ? 1 : 0,
          created_at: now,
          updated_at: now,
        };
        const id = await users.insert(row);
        const summary = summaryOf(fieldValues(shownFields(row)));
        return {
          value: id,
          activity: { action: 'user_create', target: { id, name: row.username }, summary },
        };
      });
      return this.get(userId);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(DUPLICATE_USERNAME);
      throw error;
    }
  }

  async update(actor: Actor, userId: number, input: UserUpdateInput): Promise<UserRecord> {
    // Hashed before the lock is taken: it is the slow part.
    const passwordHash = input.Password ? await this.passwords.hash(input.Password) : undefined;
    let generatedReplaced = false;
    try {
      await this.write(actor, 'admins', async (users) => {
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
        if (passwordHash) {
          patch.password_hash = passwordHash;
          patch.password_change_required = 0;
          generatedReplaced = existing.password_change_required === 1;
        }
        const revokeTokens = Boolean(passwordHash) || (existing.is_active === 1 && !isActive);
        await users.update(userId, patch, revokeTokens);
        const changed = changedFields(shownFields(existing), shownFields({ ...existing, ...patch }));
        const summary = summaryOf(passwordHash ? [...changed, 'password changed'] : changed);
        return {
          value: undefined,
          activity: { action: 'user_update', target: { id: userId, name: input.UserName }, summary },
        };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(DUPLICATE_USERNAME);
      throw error;
    }
    if (generatedReplaced) this.firstAdmin.forget();
    return this.get(userId);
  }

  async delete(actor: Actor, userId: number): Promise<void> {
    await this.write(actor, 'admins', async (users) => {
      const existing = await requireUser(users, userId);
      if (existing.user_type === 'admin' && existing.is_active === 1)
        await ensureAnotherActiveAdmin(users, 'deleted');
      await users.softDelete(userId, new Date().toISOString());
      const summary = summaryOf(fieldValues(shownFields(existing)));
      return {
        value: undefined,
        activity: { action: 'user_delete', target: { id: userId, name: existing.username }, summary },
      };
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
