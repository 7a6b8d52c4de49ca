import type { UsermapInput, UsermapRecord } from '../../../shared/schemas/usermaps.js';
import type { Executor } from '../../db/database.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import { recordIds } from '../../lib/record-ids.js';
import type { Activity, ActivityRecorder, Actor, Recorded } from '../activity/activity-recorder.js';
import { fieldValues, summaryOf } from '../activity/activity-summary.js';
import type { UsersRepository } from '../users/users-repository.js';
import type { UsermapRow, UsermapsRepository } from './usermaps-repository.js';

function toUsermapRecord(row: UsermapRow): UsermapRecord {
  return {
    ...recordIds(row.usermap_id),
    User_Id: row.user_id,
    GID: row.gid,
    UserName: row.username,
    DisplayName: row.display_name,
    NameEn: row.name_en,
  };
}

/** An assignment is named by its agent and ghadi, as the admin's list shows it. */
function assignmentActivity(
  action: 'assignment_create' | 'assignment_delete',
  usermapId: number,
  username: string,
  ghadiName: string,
): Activity {
  const target = { id: usermapId, name: `${username} → ${ghadiName}` };
  return { action, target, summary: summaryOf(fieldValues({ UserName: username, NameEn: ghadiName })) };
}

export class UsermapsService {
  constructor(
    private readonly usermaps: UsermapsRepository,
    private readonly users: UsersRepository,
    private readonly activity: ActivityRecorder,
  ) {}

  /** Every change of assignments goes through here: one transaction with the entries recording it. */
  private async write<T>(actor: Actor, work: (trx: Executor) => Promise<Recorded<T>>): Promise<T> {
    const done = await this.usermaps.inTransaction(async (trx) => {
      const written = await work(trx);
      await this.activity.record(trx, actor, written.activity);
      return written;
    });
    return done.value;
  }

  async list(): Promise<UsermapRecord[]> {
    return (await this.usermaps.list()).map(toUsermapRecord);
  }

  /** Assigns one ghadi or several to an agent; each stored pair is one assignment. */
  async assign(actor: Actor, input: UsermapInput): Promise<UsermapRecord[]> {
    const gids = [...new Set(Array.isArray(input.GID) ? input.GID : [input.GID])];
    const user = await this.users.findById(input.User_Id);
    if (!user) throw new NotFoundError('Agent not found');
    if (user.user_type !== 'agent')
      throw new BadRequestError('User_Id: Ghadis can only be assigned to agents');
    const names = await this.usermaps.liveGhadiNames(gids);
    const missing = gids.filter((gid) => !names.has(gid));
    if (missing.length > 0) throw new NotFoundError(`Ghadi not found: ${missing.join(', ')}`);

    await this.write(actor, async (trx) => {
      const added = await this.usermaps.assign(trx, user.user_id, gids, new Date().toISOString());
      if (added.length === 0) {
        throw new ConflictError(
          gids.length === 1
            ? 'This ghadi is already assigned to this agent'
            : 'These ghadis are already assigned to this agent',
        );
      }
      const activity = added.map(({ usermap_id, gid }) =>
        assignmentActivity('assignment_create', usermap_id, user.username, names.get(gid) ?? ''),
      );
      return { value: added.length, activity };
    });
    return (await this.usermaps.listFor(user.user_id, gids)).map(toUsermapRecord);
  }

  async delete(actor: Actor, usermapId: number): Promise<void> {
    await this.write(actor, async (trx) => {
      const deleted = await this.usermaps.delete(trx, usermapId);
      if (!deleted) throw new NotFoundError('Assignment not found');
      return {
        value: usermapId,
        activity: assignmentActivity('assignment_delete', usermapId, deleted.username, deleted.name_en),
      };
    });
  }
}
