import { ghadiPagePath } from './ghadi-page-month.js';

/**
 * The addresses of the calendars and feeds (docs/api.md, "Feeds and calendars"): the server's reads
 * and the results page's links take them from here.
 */

/** Every live ghadi's result times as one calendar. */
export const CALENDAR_PATH = '/calendar.ics';

export const CALENDAR_TYPE = 'text/calendar; charset=utf-8';
export const ATOM_FEED_TYPE = 'application/atom+xml';
export const JSON_FEED_TYPE = 'application/feed+json';

/** One ghadi's result times (and open time) as a calendar. */
export const ghadiCalendarPath = (nameEn: string) => `${ghadiPagePath(nameEn)}/calendar.ics`;
/** One ghadi's latest declarations and corrections as Atom. */
export const ghadiAtomPath = (nameEn: string) => `${ghadiPagePath(nameEn)}/feed.xml`;
/** The same as JSON Feed 1.1. */
export const ghadiJsonFeedPath = (nameEn: string) => `${ghadiPagePath(nameEn)}/feed.json`;
