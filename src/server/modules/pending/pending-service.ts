import type { PendingDeclaration } from '../../../shared/schemas/pending.js';
import { NotFoundError } from '../../errors.js';
import type { ActivityRecorder, Actor } from '../activity/activity-recorder.js';
import type { ChangeLog } from '../changes/change-log.js';
import type { GhadisService } from '../ghadis/ghadis-service.js';
import type { ResultsWriteRepository } from '../results/results-write-repository.js';
import type { PendingListRow, PendingRepository } from './pending-repository.js';

/** Held entries listed at most: far more than a day of mismatches, and a bounded answer. */
const LIST_LIMIT = 1000;

/** Rows (ordered by date, ghadi, time) as ghadi-dates with their entries, mismatch judged on all. */
function grouped(rows: PendingListRow[]): PendingDeclaration[] {
  const byDay = new Map<string, PendingDeclaration>();
  for (const row of rows) {
    const id = `${row.gid} ${row.result_date}`;
    let day = byDay.get(id);
    if (!day) {
      day = {
        GID: row.gid,
        Name: row.name_en,
        Date: row.result_date,
        Current: row.current,
        Mismatch: false,
        Entries: [],
      };
      byDay.set(id, day);
    }
    day.Entries.push({
      UserId: row.user_id,
      UserName: row.display_name,
      Result: row.value,
      SubmittedAt: row.submitted_at,
    });
  }
  const days = [...byDay.values()];
  for (const day of days) day.Mismatch = new Set(day.Entries.map((entry) => entry.Result)).size > 1;
  return days;
}

/**
 * The entries held for a second person (decision 0020): listed whole to admins, and to an agent only
 * their own (whether another's differs, never its value); discarded by an admin.
 */
export class PendingService {
  constructor(
    private readonly pending: PendingRepository,
    private readonly writes: ResultsWriteRepository,
    private readonly ghadis: GhadisService,
    private readonly changes: ChangeLog,
    private readonly activity: ActivityRecorder,
  ) {}

  async list(actor: Actor): Promise<PendingDeclaration[]> {
    if (actor.userType === 'admin') return grouped(await this.pending.list({ limit: LIST_LIMIT }));
    const days = grouped(await this.pending.list({ userId: actor.userId, limit: LIST_LIMIT }));
    return days.map((day) => ({
      ...day,
      Entries: day.Entries.filter((entry) => entry.UserId === actor.userId),
    }));
  }

  /** Removes a ghadi's held entries of a date, under the result's lock (a confirmation may be landing). */
  async discard(actor: Actor, gid: number, date: string): Promise<number> {
    const ghadi = await this.ghadis.requireLive(gid);
    return this.changes.write(
      async (trx) => {
        await this.writes.lockResult(trx, gid, date);
        const entries = await this.pending.entriesOf(trx, gid, date);
        if (entries.length === 0) throw new NotFoundError('Nothing is pending for this ghadi and date');
        await this.pending.clear(trx, gid, date);
        await this.activity.record(trx, actor, {
          action: 'pending_discard',
          target: { id: gid, name: `${ghadi.name_en} ${date}` },
          summary: `Discarded: ${entries.map((entry) => entry.value).join(', ')}`,
        });
        return entries.length;
      },
      () => [],
    );
  }
}
