import { addDays } from '../../../shared/dates.js';
import { instantInZone } from '../../../shared/ghadi-due.js';
import type {
  ActivityAction,
  ActivityAnswer,
  ActivityEntry,
  ActivityQuery,
} from '../../../shared/schemas/activity.js';
import type { ActivityFilter, ActivityRepository, ActivityRow } from './activity-repository.js';

function toEntry(row: ActivityRow): ActivityEntry {
  return {
    _id: String(row.activity_id),
    At: row.at,
    UserId: row.user_id,
    UserName: row.user_name,
    Role: row.role,
    Action: row.action as ActivityAction,
    Target: { Id: row.target_id === null ? null : String(row.target_id), Name: row.target_name },
    Summary: row.summary,
    Ip: row.ip,
    UserAgent: row.user_agent,
  };
}

/** The activity trail as admins read it: newest first, a page at a time, filtered. */
export class ActivityService {
  constructor(
    private readonly repository: ActivityRepository,
    private readonly timeZone: string,
  ) {}

  /** The first instant of a day in the site's time zone (its midnight, or when a skipped one ends). */
  private dayStart(date: string): string {
    return new Date(instantInZone(date, { hour: 0, minute: 0 }, this.timeZone)).toISOString();
  }

  async page(query: ActivityQuery): Promise<Omit<ActivityAnswer, 'success'>> {
    const { page, limit } = query;
    const filter: ActivityFilter = {
      userId: query.userId,
      action: query.action,
      since: query.from === undefined ? undefined : this.dayStart(query.from),
      before: query.to === undefined ? undefined : this.dayStart(addDays(query.to, 1)),
    };
    const { rows, total } = await this.repository.page(filter, page, limit);
    return {
      data: rows.map(toEntry),
      pagination: { page, limit, total, totalPages: Math.max(1, Math.ceil(total / limit)) },
    };
  }
}
