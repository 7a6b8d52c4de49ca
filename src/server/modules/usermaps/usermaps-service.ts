import type { UsermapInput, UsermapRecord } from '../../../shared/schemas/usermaps.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import { recordIds } from '../../lib/record-ids.js';
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

export class UsermapsService {
  constructor(
    private readonly usermaps: UsermapsRepository,
    private readonly users: UsersRepository,
  ) {}

  async list(): Promise<UsermapRecord[]> {
    return (await this.usermaps.list()).map(toUsermapRecord);
  }

  /** Assigns one ghadi or several to an agent; each stored pair is one assignment. */
  async assign(input: UsermapInput): Promise<UsermapRecord[]> {
    const gids = [...new Set(Array.isArray(input.GID) ? input.GID : [input.GID])];
    const user = await this.users.findById(input.User_Id);
    if (!user) throw new NotFoundError('Agent not found');
    if (user.user_type !== 'agent')
      throw new BadRequestError('User_Id: Ghadis can only be assigned to agents');
    const existing = new Set(await this.usermaps.existingGids(gids));
    const missing = gids.filter((gid) => !existing.has(gid));
    if (missing.length > 0) throw new NotFoundError(`Ghadi not found: ${missing.join(', ')}`);

    const added = await this.usermaps.assign(user.user_id, gids, new Date().toISOString());
    if (added === 0) {
      throw new ConflictError(
        gids.length === 1
          ? 'This ghadi is already assigned to this agent'
          : 'These ghadis are already assigned to this agent',
      );
    }
    return (await this.usermaps.listFor(user.user_id, gids)).map(toUsermapRecord);
  }

  async delete(usermapId: number): Promise<void> {
    if (!(await this.usermaps.delete(usermapId))) throw new NotFoundError('Assignment not found');
  }
}
