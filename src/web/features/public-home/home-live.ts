import { BANNER_SLUG, BLOG_SLUG } from '../../../shared/home-content-blocks.js';
import type { LiveEvent } from '../../../shared/live-events.js';
import type { HomePageData } from '../../../shared/public-page-data.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import { fetchHomeData } from '../../lib/public-fetch.js';

/** The chart's order, as GET /api/ghadis gives it: OrderId, then GID. */
function byOrder(a: GhadiRecord, b: GhadiRecord): number {
  return a.OrderId - b.OrderId || a.GID - b.GID;
}

/** The list with one ghadi's row replaced, added, or (null) removed. */
function withGhadi(ghadis: GhadiRecord[], gid: number, row: GhadiRecord | null): GhadiRecord[] {
  const others = ghadis.filter((ghadi) => ghadi.GID !== gid);
  return row ? [...others, row].sort(byOrder) : others;
}

/** The record chart's results with one ghadi's result of a day replaced, added, or (null) removed. */
function withResult(
  record: PublicResultRecord[],
  gid: number,
  date: string,
  result: PublicResultRecord | null,
  month: string,
): PublicResultRecord[] {
  const others = record.filter((row) => row.GID !== gid || row.Date !== date);
  const shown = result?.Name && result.Date.startsWith(month) ? [result] : [];
  return [...shown, ...others];
}

/**
 * The home page's data after a live event; the same object when the event does not concern it. A
 * change moves "Last updated" to when it was applied (the event carries no time of its own).
 */
export function applyHomeEvent(data: HomePageData, event: LiveEvent, now: Date = new Date()): HomePageData {
  const next = changedBy(data, event);
  return next === data ? data : { ...next, updatedAt: now.toISOString() };
}

function changedBy(data: HomePageData, event: LiveEvent): HomePageData {
  switch (event.kind) {
    case 'result':
      return {
        ...data,
        ghadis: withGhadi(data.ghadis, event.gid, event.ghadi),
        record: withResult(data.record, event.gid, event.date, event.result, data.recordMonth),
      };
    case 'ghadi': {
      const { ghadi } = event;
      // A renamed ghadi's results carry its new name; a deleted one's leave the chart.
      const record = ghadi
        ? data.record.map((row) => (row.GID === event.gid ? { ...row, Name: ghadi.NameEn } : row))
        : data.record.filter((row) => row.GID !== event.gid);
      return { ...data, ghadis: withGhadi(data.ghadis, event.gid, ghadi), record };
    }
    case 'content': {
      const html = event.block?.Content ?? null;
      if (event.slug === BLOG_SLUG) return { ...data, blogHtml: html };
      if (event.slug === BANNER_SLUG) return { ...data, bannerHtml: html };
      return data;
    }
    case 'day': {
      const sameMonth = event.recordMonth === data.recordMonth;
      return {
        ...data,
        today: event.today,
        recordMonth: event.recordMonth,
        ghadis: event.ghadis,
        record: event.record ?? (sameMonth ? data.record : []),
      };
    }
    case 'resync':
      return data;
  }
}

/** Everything the home page shows, in one request (after a resync, while polling, and in the SPA). */
export async function loadHomeData(): Promise<{ data: HomePageData; version: number }> {
  const data = await fetchHomeData();
  return { data, version: data.version };
}
