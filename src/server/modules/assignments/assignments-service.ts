import type { AssignmentInput, AssignmentRecord } from '../../../shared/schemas/assignments.js';
import type { Executor } from '../../db/database.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import { recordIds } from '../../lib/record-ids.js';
import type { Activity, ActivityRecorder, Actor, Recorded } from '../activity/activity-recorder.js';
import { fieldValues, summaryOf } from '../activity/activity-summary.js';
import type { UsersRepository } from '../users/users-repository.js';
import type { AssignmentRow, AssignmentsRepository } from './assignments-repository.js';

function toAssignmentRecord(row: AssignmentRow): AssignmentRecord {
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
  assignmentId: number,
  username: string,
  ghadiName: string,
): Activity {
  const target = { id: assignmentId, name: `${username} → ${ghadiName}` };
  return { action, target, summary: summaryOf(fieldValues({ UserName: username, NameEn: ghadiName })) };
}

export class AssignmentsService {
  constructor(
    private readonly assignments: AssignmentsRepository,
    private readonly users: UsersRepository,
    private readonly activity: ActivityRecorder,
  ) {}

  /** Every change of assignments goes through here: one transaction with the entries recording it. */
  private async write<T>(actor: Actor, work: (trx: Executor) => Promise<Recorded<T>>): Promise<T> {
    const done = await this.assignments.inTransaction(async (trx) => {
      const written = await work(trx);
      await this.activity.record(trx, actor, written.activity);
      return written;
    });
    return done.value;
  }

  async list(): Promise<AssignmentRecord[]> {
    return (await this.assignments.list()).map(toAssignmentRecord);
  }

  /** Assigns one ghadi or several to an agent; each stored pair is one assignment. */
  async assign(actor: Actor, input: AssignmentInput): Promise<AssignmentRecord[]> {
    const gids = [...new Set(Array.isArray(input.GID) ? input.GID : [input.GID])];
    const user = await this.users.findById(input.User_Id);
    if (!user) throw new NotFoundError('Agent not found');
    if (user.user_type !== 'agent')
      throw new BadRequestError('User_Id: Ghadis can only be assigned to agents');
    const names = await this.assignments.liveGhadiNames(gids);
    const missing = gids.filter((gid) => !names.has(gid));
    if (missing.length > 0) throw new NotFoundError(`Ghadi not found: ${missing.join(', ')}`);

    await this.write(actor, async (trx) => {
      const added = await this.assignments.assign(trx, user.user_id, gids, new Date().toISOString());
      if (added.length === 0) {
        throw new ConflictError(
          gids.length === 1
            ? 'This ghadi is already assigned to this agent'
            : 'These ghadis are already assigned to this agent',
        );
      }
      const activity = added.map((row) =>
        assignmentActivity('assignment_create', row.usermap_id, user.username, names.get(row.gid) ?? ''),
      );
      return { value: added.length, activity };
    });
    return (await this.assignments.listFor(user.user_id, gids)).map(toAssignmentRecord);
  }

  async delete(actor: Actor, assignmentId: number): Promise<void> {
    await this.write(actor, async (trx) => {
      const deleted = await this.assignments.delete(trx, assignmentId);
      if (!deleted) throw new NotFoundError('Assignment not found');
      return {
        value: assignmentId,
        activity: assignmentActivity('assignment_delete', assignmentId, deleted.username, deleted.name_en),
      };
    });
  }
}
