import { z } from 'zod';
import { GHADI_STATES } from '../ghadi-due.js';
import { MARKET_STEPS } from '../open-close-steps.js';
import { ghadiKind } from './ghadis.js';

export const todayAgent = z.object({
  User_Id: z.number().int(),
  UserName: z.string(),
  DisplayName: z.string(),
  lastSeenAt: z
    .string()
    .nullable()
    .describe('The agent’s last authenticated request (ISO 8601 UTC, to the minute), or null'),
});
export type TodayAgent = z.infer<typeof todayAgent>;

export const todayGhadi = z.object({
  GID: z.number().int(),
  NameEn: z.string(),
  NameHn: z.string(),
  RTime: z.string(),
  dueAt: z
    .string()
    .nullable()
    .describe('Today’s RTime in the site’s time zone as an ISO instant; null when RTime cannot be read'),
  state: z
    .enum(GHADI_STATES)
    .describe(
      'By the clock: an open/close market by its open time until its open panna is in, then by RTime; a closed ghadi without a value waits',
    ),
  Kind: ghadiKind,
  OpenTime: z.string().nullable().describe('An open/close market’s open time; null for other kinds'),
  openDueAt: z
    .string()
    .nullable()
    .describe('Today’s OpenTime as an ISO instant; null for other kinds or an unreadable time'),
  step: z
    .enum(MARKET_STEPS)
    .nullable()
    .describe('What an open/close market waits for today (open, close, or complete); null for other kinds'),
  closed: z
    .enum(['holiday', 'off-day'])
    .nullable()
    .describe('Why it does not run today (a holiday, or not one of its Days); null when it runs'),
  closedNote: z.string().nullable().describe('The note of today’s holiday; null when none'),
  /** Today's value, or null while there is none. */
  Result: z.string().nullable(),
  DeclaredAt: z.string().nullable(),
  DeclaredBy: z
    .string()
    .nullable()
    .describe('Who declared today’s value: the display name, else the user name; null when none'),
  agents: z.array(todayAgent).describe('The active agents assigned to the ghadi, by user name'),
});
export type TodayGhadi = z.infer<typeof todayGhadi>;

export const todayBoard = z.object({
  /** Today in the site's time zone, YYYY-MM-DD. */
  date: z.string(),
  /** The site's zone (SITE_TIMEZONE), which dueAt was reckoned in. */
  timeZone: z.string(),
  /** OVERDUE_AFTER_MINUTES: a client turns due into overdue by the clock with it. */
  overdueAfterMinutes: z.number().int(),
  ghadis: z.array(todayGhadi),
});
export type TodayBoard = z.infer<typeof todayBoard>;

export const todayAnswer = z.object({ success: z.literal(true), data: todayBoard });
