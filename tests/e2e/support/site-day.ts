import { type APIRequestContext, expect } from '@playwright/test';
import type { z } from 'zod';
import { instantInZone, parseResultTime } from '../../../src/shared/ghadi-due.js';
import type { homeAnswer } from '../../../src/shared/schemas/home.js';

/**
 * The site's day as the server reckons it. Tests never read this machine's clock: the server's zone
 * and midnight decide what today is, so a test passes at any hour, in any time zone.
 */
export interface SiteDay {
  /** Today in the site's zone (YYYY-MM-DD). */
  readonly today: string;
  /**
   * The month of the home page's record chart (YYYY-MM): UTC's, so not today's month in the small
   * hours of a month's first day in the site's zone.
   */
  readonly recordMonth: string;
  /** The site's zone (SITE_TIMEZONE). */
  readonly timeZone: string;
}

/** Asks the server (GET /api/home) for the site's day. */
export async function siteDay(request: APIRequestContext): Promise<SiteDay> {
  const response = await request.get('/api/home');
  expect(response.status(), 'GET /api/home').toBe(200);
  const { data } = (await response.json()) as z.infer<typeof homeAnswer>;
  return { today: data.today, recordMonth: data.recordMonth, timeZone: data.timeZone };
}

/** The instant of a wall time ("00:05", "6:00 PM") on the site's today, in its zone: for a page's clock. */
export function siteTime(site: SiteDay, time: string): Date {
  const wall = parseResultTime(time);
  if (!wall) throw new Error(`Not a time of day: ${time}`);
  return new Date(instantInZone(site.today, wall, site.timeZone));
}

/**
 * The server's clock (its Date header, to the second): what a test's authenticator app computes codes
 * from, so that the test reads no clock of this machine.
 */
export async function serverNow(request: APIRequestContext): Promise<number> {
  const response = await request.get('/api/site');
  const date = response.headers().date;
  expect(date, 'GET /api/site has a Date header').toBeTruthy();
  return Date.parse(date as string);
}
