import { dateInZone } from '../../../shared/dates.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The first instant after `from` at which the date in the zone is no longer `today` (to the second). */
export function nextMidnightInZone(timeZone: string, from: number): number {
  const today = dateInZone(new Date(from), timeZone);
  let before = from;
  // Two days always reach the next date, whatever the zone's daylight-saving changes.
  let after = from + 2 * DAY_MS;
  while (after - before > 1000) {
    const middle = Math.floor((before + after) / 2);
    if (dateInZone(new Date(middle), timeZone) === today) before = middle;
    else after = middle;
  }
  return after;
}

export function nextUtcMidnight(from: number): number {
  return (Math.floor(from / DAY_MS) + 1) * DAY_MS;
}

/** A rollover: the site's date and the UTC date from then on, and the site's date before it. */
export interface Rollover {
  today: string;
  utcDate: string;
  previous: string;
}

/**
 * The site's "today" (SITE_TIMEZONE) for the public caches, which are keyed by it: it rolls over at the
 * zone's midnight and at UTC midnight (the record chart's month is the UTC month). A timer rolls it
 * over on time (at most ~50 ms late), so that open pages hear about the new day and the fast path can
 * resend an answer without asking; a request that looks answers up first calls `rollOverIfDue`, a
 * clock read and a comparison, so that it never keys an answer by a day that has ended. `today()`
 * only reads.
 */
export class SiteClock {
  private todayValue = '';
  private validUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly timeZone: string,
    private readonly onRollover: (rollover: Rollover) => void,
    // Looked up on each call (not captured), so that tests can move the clock.
    private readonly now: () => number = () => Date.now(),
  ) {
    this.compute();
  }

  today(): string {
    return this.todayValue;
  }

  /** Rolls the day over now if it is due (the timer may not have fired yet): before keys are made. */
  rollOverIfDue(): void {
    if (this.now() >= this.validUntil) this.roll();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private roll(): void {
    const previous = this.todayValue;
    this.compute();
    this.onRollover({
      today: this.todayValue,
      utcDate: new Date(this.now()).toISOString().slice(0, 10),
      previous,
    });
  }

  private compute(): void {
    const now = this.now();
    this.todayValue = dateInZone(new Date(now), this.timeZone);
    this.validUntil = Math.min(nextMidnightInZone(this.timeZone, now), nextUtcMidnight(now));
    this.schedule(now);
  }

  private schedule(now: number): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.stopped) return;
    // A little late rather than early; a timer that still fires early just waits again.
    this.timer = setTimeout(
      () => {
        const at = this.now();
        if (at >= this.validUntil) this.roll();
        else this.schedule(at);
      },
      this.validUntil - now + 50,
    );
    this.timer.unref();
  }
}
