import type { ActivityAction } from '../../../shared/schemas/activity.js';
import type { UserType } from '../../../shared/schemas/users.js';
import { type Database, type Executor, inLockedTransaction } from '../../db/database.js';
import { plainText } from '../../lib/plain-text.js';
import { ACTIVITY_LOCK, type ActivityRepository } from './activity-repository.js';

/** Where a request came from: its address as the app resolves it (TRUST_PROXY) and its user agent. */
export interface Client {
  ip: string;
  userAgent: string;
}

/** Who made a change: the signed-in user (as the access check found it) and their client. */
export interface Actor extends Client {
  userId: number;
  username: string;
  userType: UserType;
}

/** An entry's author: a user, or a client alone (a failed login by a name no account has). */
export type Who = Actor | (Client & { userId: null });

/** What an entry says was done, to what, and how it changed: never a password, hash or token. */
export interface Activity {
  action: ActivityAction;
  /** The record's id, or null when there is none; its name as it is (or was, for a delete). */
  target: { id: number | null; name: string };
  summary: string;
}

/** What a write did (its value, for the caller) and the entries that record it. */
export interface Recorded<T> {
  value: T;
  activity: Activity | Activity[];
}

/** Lengths kept of what a client chose: an entry stays small whatever was sent. */
export const USER_AGENT_MAX = 256;
export const TARGET_NAME_MAX = 120;
export const IP_MAX = 64;
const SUMMARY_MAX = 1000;

/**
 * Writes the activity trail: each entry in the transaction of the change it records, so that an entry
 * exists exactly when its change was committed. Services call it once, where their writes go through.
 * Every text it stores, most of them a client's (names, display names in summaries, user agents),
 * loses its control characters here, once for all.
 */
export class ActivityRecorder {
  constructor(
    private readonly repository: ActivityRepository,
    private readonly database: Database,
  ) {}

  async record(trx: Executor, who: Who, activities: Activity | Activity[]): Promise<void> {
    const at = new Date().toISOString();
    for (const activity of Array.isArray(activities) ? activities : [activities]) {
      await this.repository.append(
        trx,
        {
          user_id: who.userId,
          user_name: who.userId === null ? null : plainText(who.username, TARGET_NAME_MAX),
          role: who.userId === null ? null : who.userType,
          action: activity.action,
          target_id: activity.target.id,
          target_name: plainText(activity.target.name, TARGET_NAME_MAX),
          summary: plainText(activity.summary, SUMMARY_MAX),
          ip: plainText(who.ip, IP_MAX),
          user_agent: plainText(who.userAgent, USER_AGENT_MAX),
        },
        at,
      );
    }
  }

  /** An entry that is the whole change (a failed login): written in a transaction of its own. */
  recordAlone(who: Who, activity: Activity): Promise<void> {
    return inLockedTransaction(this.database, ACTIVITY_LOCK, (trx) => this.record(trx, who, activity));
  }
}
