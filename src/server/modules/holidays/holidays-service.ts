import type { HolidayInput, HolidayRecord } from '../../../shared/schemas/holidays.js';
import { isUniqueViolation } from '../../db/database.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { recordIds } from '../../lib/record-ids.js';
import type { ActivityRecorder, Actor } from '../activity/activity-recorder.js';
import { fieldValues, summaryOf } from '../activity/activity-summary.js';
import type { ChangeLog } from '../changes/change-log.js';
import type { GhadisService } from '../ghadis/ghadis-service.js';
import { EVERY_GHADI, type HolidayRow, type HolidaysRepository } from './holidays-repository.js';

export function toHolidayRecord(row: HolidayRow): HolidayRecord {
  return {
    ...recordIds(row.holiday_id),
    Date: row.holiday_date,
    GID: row.gid === EVERY_GHADI ? null : row.gid,
    Note: row.note,
  };
}

/** Why a ghadi does not run on a date: a holiday (its own or every ghadi's), or null. */
export interface Closures {
  /** Whether `gid` is on holiday on the date these closures were read for. */
  isHoliday(gid: number): boolean;
}

/**
 * The dates ghadis do not run besides their off-days: the board says so, agents may not declare on
 * them (admins may), and the weekly charts mark them. Each change goes through the change log, so
 * every process's pages show it.
 */
export class HolidaysService {
  constructor(
    private readonly holidays: HolidaysRepository,
    private readonly ghadis: GhadisService,
    private readonly changes: ChangeLog,
    private readonly activity: ActivityRecorder,
  ) {}

  async list(): Promise<HolidayRecord[]> {
    return (await this.holidays.list()).map(toHolidayRecord);
  }

  /** The dates from `from` to `to` (inclusive) a ghadi is on holiday, its own and every ghadi's: the weekly charts. */
  async datesOff(gid: number, from: string, to: string): Promise<string[]> {
    return [...new Set((await this.holidays.between(gid, from, to)).map((row) => row.holiday_date))];
  }

  /** The holidays on one date, as a question per ghadi. */
  async on(date: string): Promise<Closures> {
    const off = await this.holidays.ghadisOffOn(date);
    return { isHoliday: (gid) => off.has(EVERY_GHADI) || off.has(gid) };
  }

  async create(actor: Actor, input: HolidayInput): Promise<HolidayRecord> {
    const gid = input.GID ?? null;
    const ghadi = gid === null ? null : await this.ghadis.requireLive(gid);
    const note = input.Note ?? '';
    try {
      const value = await this.changes.write(
        async (trx) => {
          const id = await this.holidays.insert(trx, {
            date: input.Date,
            gid: gid ?? EVERY_GHADI,
            note,
            createdBy: actor.userId,
            now: new Date().toISOString(),
          });
          const name = `${ghadi?.name_en ?? 'Every ghadi'} ${input.Date}`;
          await this.activity.record(trx, actor, {
            action: 'holiday_create',
            target: { id, name },
            summary: summaryOf(fieldValues({ Date: input.Date, GID: gid ?? 'all', Note: note })),
          });
          return id;
        },
        () => [{ kind: 'holiday', date: input.Date, gid }],
      );
      return { ...recordIds(value), Date: input.Date, GID: gid, Note: note };
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ConflictError(
          gid === null
            ? `${input.Date} is already a holiday of every ghadi`
            : `${input.Date} is already a holiday of ${ghadi?.name_en ?? `ghadi ${gid}`}`,
        );
      }
      throw error;
    }
  }

  async delete(actor: Actor, id: number): Promise<void> {
    await this.changes.write(
      async (trx) => {
        const row = await this.holidays.delete(trx, id);
        if (!row) throw new NotFoundError(`Holiday ${id} not found`);
        const record = toHolidayRecord(row);
        await this.activity.record(trx, actor, {
          action: 'holiday_delete',
          target: {
            id,
            name: `${record.GID === null ? 'Every ghadi' : `Ghadi ${record.GID}`} ${record.Date}`,
          },
          summary: summaryOf(fieldValues({ Date: record.Date, GID: record.GID ?? 'all', Note: record.Note })),
        });
        return record;
      },
      (record) => [{ kind: 'holiday', date: record.Date, gid: record.GID }],
    );
  }
}
