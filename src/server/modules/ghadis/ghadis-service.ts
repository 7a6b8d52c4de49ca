import { todayInZone, yesterdayInZone } from '../../../shared/dates.js';
import { parseResultTime } from '../../../shared/ghadi-due.js';
import { ALL_DAYS, daysToMask, maskToDays, runsOn } from '../../../shared/matka.js';
import type { GhadiInput, GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { type Executor, isUniqueViolation } from '../../db/database.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import { recordIds } from '../../lib/record-ids.js';
import type { ActivityRecorder, Actor, Recorded } from '../activity/activity-recorder.js';
import { changedFields, fieldValues, summaryOf } from '../activity/activity-summary.js';
import type { Change } from '../changes/change.js';
import type { ChangeLog } from '../changes/change-log.js';
import { EVERY_GHADI, type HolidaysRepository } from '../holidays/holidays-repository.js';
import type { GhadiFields, GhadiRow, GhadisRepository, ResultSummary } from './ghadis-repository.js';

const NO_RESULTS: ResultSummary = {
  today: '',
  todayPrevious: null,
  todayDeclaredAt: null,
  yesterday: '',
  latest: '',
};

function toGhadiRecord(
  row: GhadiRow,
  summary: ResultSummary = NO_RESULTS,
  closed: GhadiRecord['Closed'] = null,
): GhadiRecord {
  return {
    ...recordIds(row.gid),
    GID: row.gid,
    NameEn: row.name_en,
    NameHn: row.name_hn,
    RTime: row.r_time,
    OrderId: row.order_id,
    Kind: row.kind,
    OpenTime: row.open_time,
    Days: maskToDays(row.days),
    Confirmations: row.confirmations === 2 ? 2 : 1,
    Closed: closed,
    TodayResult: summary.today,
    YesterdayResult: summary.yesterday,
    Result: summary.latest,
    isActive: row.is_active === 1,
    Corrected: summary.todayPrevious !== null,
    Previous: summary.todayPrevious,
    DeclaredAt: summary.todayDeclaredAt,
  };
}

/** Whether an edit changes what every public page lists of the ghadi: its names and its place. */
function listedFieldsDiffer(before: GhadiFields, after: GhadiFields): boolean {
  return (
    before.name_en !== after.name_en || before.name_hn !== after.name_hn || before.order_id !== after.order_id
  );
}

/**
 * The fields an input sets, the newer ones (Kind, OpenTime, Days, Confirmations) kept from `before` when it leaves them
 * out: a client that knows nothing of them changes nothing of them.
 */
function toFields(input: GhadiInput, before?: GhadiFields): GhadiFields {
  const kind = input.Kind ?? before?.kind ?? 'jodi';
  const openTime = input.OpenTime === undefined ? (before?.open_time ?? null) : input.OpenTime;
  if (kind !== 'open-close' && openTime !== null && input.OpenTime !== undefined) {
    throw new BadRequestError('OpenTime: Only an open-close ghadi has an open time');
  }
  if (kind === 'open-close') {
    if (openTime === null) throw new BadRequestError('OpenTime: An open-close ghadi needs its open time');
    const open = parseResultTime(openTime);
    const close = parseResultTime(input.RTime);
    if (open && close && open.hour * 60 + open.minute >= close.hour * 60 + close.minute) {
      throw new BadRequestError('OpenTime: Must be earlier in the day than RTime (the close time)');
    }
  }
  return {
    name_en: input.NameEn,
    name_hn: input.NameHn,
    r_time: input.RTime,
    order_id: input.OrderId,
    kind,
    open_time: kind === 'open-close' ? openTime : null,
    days: input.Days ? daysToMask(input.Days) : (before?.days ?? daysToMask(ALL_DAYS)),
    confirmations: input.Confirmations ?? before?.confirmations ?? 1,
  };
}

/** A ghadi's fields as the activity trail names them: the API's. */
function shownFields(fields: GhadiFields) {
  return {
    NameEn: fields.name_en,
    NameHn: fields.name_hn,
    RTime: fields.r_time,
    OrderId: fields.order_id,
    Kind: fields.kind,
    OpenTime: fields.open_time,
    Days: maskToDays(fields.days).join(','),
    Confirmations: fields.confirmations,
  };
}

export class GhadisService {
  constructor(
    private readonly ghadis: GhadisRepository,
    private readonly timeZone: string,
    private readonly changes: ChangeLog,
    private readonly activity: ActivityRecorder,
    private readonly holidays: HolidaysRepository,
  ) {}

  /** Every live ghadi by OrderId, with today's and yesterday's results in the site's time zone. */
  async list(now = new Date()): Promise<GhadiRecord[]> {
    return this.withResults(await this.ghadis.listLive(), now);
  }

  async listAssignedTo(userId: number): Promise<GhadiRecord[]> {
    return this.withResults(await this.ghadis.listAssignedTo(userId), new Date());
  }

  count(): Promise<number> {
    return this.ghadis.countLive();
  }

  async requireLive(gid: number): Promise<GhadiRow> {
    const row = await this.ghadis.findLive(gid);
    if (!row) throw new NotFoundError(`Ghadi ${gid} not found`);
    return row;
  }

  findByName(name: string): Promise<GhadiRow | undefined> {
    return this.ghadis.findLiveByName(name);
  }

  async create(actor: Actor, input: GhadiInput): Promise<GhadiRecord> {
    if (input.GID !== undefined && (await this.ghadis.gidExists(input.GID))) {
      throw new ConflictError(`GID ${input.GID} is already in use`);
    }
    const fields = toFields(input);
    const gid = await this.write(actor, async (trx) => {
      const created = await this.ghadis.insert(fields, input.GID, new Date().toISOString(), trx);
      const summary = summaryOf(fieldValues({ GID: created, ...shownFields(fields) }));
      return {
        value: created,
        activity: { action: 'ghadi_create', target: { id: created, name: fields.name_en }, summary },
        listed: true,
      };
    });
    return this.get(gid);
  }

  /** GID is the ghadi's identity (results point at it), so an update never changes it. */
  async update(actor: Actor, gid: number, input: GhadiInput): Promise<GhadiRecord> {
    await this.write(actor, async (trx) => {
      const before = await this.requireLiveToChange(trx, gid);
      const fields = toFields(input, before);
      await this.ghadis.update(trx, gid, fields, new Date().toISOString());
      const summary = summaryOf(changedFields(shownFields(before), shownFields(fields)));
      return {
        value: gid,
        activity: { action: 'ghadi_update', target: { id: gid, name: fields.name_en }, summary },
        listed: listedFieldsDiffer(before, fields),
      };
    });
    return this.get(gid);
  }

  async delete(actor: Actor, gid: number): Promise<void> {
    await this.write(actor, async (trx) => {
      const before = await this.requireLiveToChange(trx, gid);
      await this.ghadis.softDelete(trx, gid, new Date().toISOString());
      const summary = summaryOf(fieldValues(shownFields(before)));
      return {
        value: gid,
        activity: { action: 'ghadi_delete', target: { id: gid, name: before.name_en }, summary },
        listed: true,
      };
    });
  }

  private async get(gid: number): Promise<GhadiRecord> {
    const [record] = await this.withResults([await this.requireLive(gid)], new Date());
    if (!record) throw new NotFoundError(`Ghadi ${gid} not found`);
    return record;
  }

  /**
   * Every change of a ghadi goes through here: one transaction with its change (for the public
   * site) and the activity entry that records it.
   */
  private async write(
    actor: Actor,
    work: (trx: Executor) => Promise<Recorded<number> & { listed: boolean }>,
  ): Promise<number> {
    try {
      const done = await this.changes.write(
        async (trx) => {
          const recorded = await work(trx);
          await this.activity.record(trx, actor, recorded.activity);
          return recorded;
        },
        ({ value, listed }): Change[] => [{ kind: 'ghadi', gid: value, listed }],
      );
      return done.value;
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError('A ghadi with this name or GID already exists');
      throw error;
    }
  }

  private async requireLiveToChange(trx: Executor, gid: number): Promise<GhadiRow> {
    const row = await this.ghadis.findLiveToChange(trx, gid);
    if (!row) throw new NotFoundError(`Ghadi ${gid} not found`);
    return row;
  }

  private async withResults(rows: GhadiRow[], now: Date): Promise<GhadiRecord[]> {
    if (rows.length === 0) return [];
    const today = todayInZone(this.timeZone, now);
    const [summaries, off] = await Promise.all([
      this.ghadis.resultSummaries(today, yesterdayInZone(this.timeZone, now)),
      this.holidays.ghadisOffOn(today),
    ]);
    return rows.map((row) => {
      const closed =
        off.has(EVERY_GHADI) || off.has(row.gid)
          ? 'holiday'
          : runsOn(maskToDays(row.days), today)
            ? null
            : 'off-day';
      return toGhadiRecord(row, summaries.get(row.gid), closed);
    });
  }

  /**
   * Why a ghadi does not run on a date (a holiday, or not one of its days), or null: agents may not
   * declare then, and the board says so.
   */
  async closedOn(row: GhadiRow, date: string): Promise<'holiday' | 'off-day' | null> {
    const off = await this.holidays.ghadisOffOn(date);
    if (off.has(EVERY_GHADI) || off.has(row.gid)) return 'holiday';
    return runsOn(maskToDays(row.days), date) ? null : 'off-day';
  }
}
