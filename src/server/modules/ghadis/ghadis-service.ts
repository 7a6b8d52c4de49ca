import { todayInZone, yesterdayInZone } from '../../../shared/dates.js';
import type { GhadiInput, GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { isUniqueViolation } from '../../db/database.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { recordIds } from '../../lib/record-ids.js';
import type { ChangeLog } from '../changes/change-log.js';
import type { GhadiFields, GhadiRow, GhadisRepository, ResultSummary } from './ghadis-repository.js';

const NO_RESULTS: ResultSummary = {
  today: '',
  todayPrevious: null,
  todayDeclaredAt: null,
  yesterday: '',
  latest: '',
};

function toGhadiRecord(row: GhadiRow, summary: ResultSummary = NO_RESULTS): GhadiRecord {
  return {
    ...recordIds(row.gid),
    GID: row.gid,
    NameEn: row.name_en,
    NameHn: row.name_hn,
    RTime: row.r_time,
    OrderId: row.order_id,
    TodayResult: summary.today,
    YesterdayResult: summary.yesterday,
    Result: summary.latest,
    isActive: row.is_active === 1,
    Corrected: summary.todayPrevious !== null,
    Previous: summary.todayPrevious,
    DeclaredAt: summary.todayDeclaredAt,
  };
}

function toFields(input: GhadiInput): GhadiFields {
  return { name_en: input.NameEn, name_hn: input.NameHn, r_time: input.RTime, order_id: input.OrderId };
}

export class GhadisService {
  constructor(
    private readonly ghadis: GhadisRepository,
    private readonly timeZone: string,
    private readonly changes: ChangeLog,
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

  async create(input: GhadiInput): Promise<GhadiRecord> {
    if (input.GID !== undefined && (await this.ghadis.gidExists(input.GID))) {
      throw new ConflictError(`GID ${input.GID} is already in use`);
    }
    const gid = await this.save(() =>
      this.changes.write(
        (trx) => this.ghadis.insert(toFields(input), input.GID, new Date().toISOString(), trx),
        (created) => [{ kind: 'ghadi', gid: created }],
      ),
    );
    return this.get(gid);
  }

  /** GID is the ghadi's identity (results point at it), so an update never changes it. */
  async update(gid: number, input: GhadiInput): Promise<GhadiRecord> {
    await this.requireLive(gid);
    await this.save(() =>
      this.changes.write(
        (trx) => this.ghadis.update(trx, gid, toFields(input), new Date().toISOString()),
        () => [{ kind: 'ghadi', gid }],
      ),
    );
    return this.get(gid);
  }

  async delete(gid: number): Promise<void> {
    await this.requireLive(gid);
    await this.changes.write(
      (trx) => this.ghadis.softDelete(trx, gid, new Date().toISOString()),
      () => [{ kind: 'ghadi', gid }],
    );
  }

  private async get(gid: number): Promise<GhadiRecord> {
    const [record] = await this.withResults([await this.requireLive(gid)], new Date());
    if (!record) throw new NotFoundError(`Ghadi ${gid} not found`);
    return record;
  }

  private async save<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError('A ghadi with this name or GID already exists');
      throw error;
    }
  }

  private async withResults(rows: GhadiRow[], now: Date): Promise<GhadiRecord[]> {
    if (rows.length === 0) return [];
    const summaries = await this.ghadis.resultSummaries(
      todayInZone(this.timeZone, now),
      yesterdayInZone(this.timeZone, now),
    );
    return rows.map((row) => toGhadiRecord(row, summaries.get(row.gid)));
  }
}
