import { addDays, dateInZone } from '../../../shared/dates.js';
import type { Executor } from '../../db/database.js';
import type { Now } from '../../lib/clock.js';
import type { NewNotification, NotificationsRepository } from './notifications-repository.js';

/**
 * Where a declaration or correction becomes a notification to send: in the transaction that writes
 * the result, so that a committed result always has its notification and a rolled-back one never
 * does (decision 0025). Only today's and yesterday's results (in the site's zone, by the app's clock)
 * are news; an older date, and a CSV import (which does not come here), are not.
 */
export class NotificationOutbox {
  constructor(
    private readonly repository: NotificationsRepository,
    private readonly options: { enabled: boolean; timeZone: string; now: Now },
  ) {}

  async announce(trx: Executor, notification: NewNotification): Promise<void> {
    if (!this.options.enabled) return;
    const now = new Date(this.options.now());
    const today = dateInZone(now, this.options.timeZone);
    if (notification.date !== today && notification.date !== addDays(today, -1)) return;
    await this.repository.enqueue(trx, notification, now.toISOString());
  }
}
