import { correctionLabel } from '../../../shared/correction-label.js';
import { longDate, monthOf, yearOf } from '../../../shared/date-labels.js';
import { timeInZone } from '../../../shared/dates.js';
import { DECLARATIONS_PATH, FEED_PATH } from '../../../shared/declaration-log-pages.js';
import { ghadiMonthPath } from '../../../shared/ghadi-page-month.js';
import type { DeclarationEntry } from '../../../shared/schemas/declarations.js';
import { SITE_NAME } from '../../../shared/site.js';
import { type CachedAnswer, type PrepareOptions, prepareAnswer } from '../model/cached-answer.js';
import { escapeXml } from './site-files.js';

export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';

/** An empty log's feed has changed never: a fixed instant keeps its bytes (and ETag) the same. */
const NEVER = '1970-01-01T00:00:00.000Z';

/** "NCR 2026-11-22: 45 (corrected, was 54)". */
export function entryTitle(entry: DeclarationEntry): string {
  const title = `${entry.Name} ${entry.Date}: ${entry.Result}`;
  return entry.Previous === null ? title : `${title} (${correctionLabel(entry.Previous)})`;
}

function entryText(entry: DeclarationEntry, timeZone: string): string {
  const value =
    entry.Previous === null
      ? `declared ${entry.Result}`
      : `corrected to ${entry.Result} (it was ${entry.Previous})`;
  return (
    `${entry.Name}, ${longDate(entry.Date)}: ${value} at ${timeInZone(entry.DeclaredAt, timeZone)} ` +
    `(${timeZone}). Entry ${entry.seq} of the declaration log; hash ${entry.hash}, ` +
    `previous hash ${entry.prevHash}.`
  );
}

function entryXml(entry: DeclarationEntry, origin: string, timeZone: string, today: string): string {
  const page = `${origin}${ghadiMonthPath(entry.Name, monthOf(entry.Date), yearOf(entry.Date), today)}`;
  return [
    '  <entry>',
    `    <id>${escapeXml(`${origin}${DECLARATIONS_PATH}#seq-${entry.seq}`)}</id>`,
    `    <title>${escapeXml(entryTitle(entry))}</title>`,
    `    <updated>${escapeXml(entry.DeclaredAt)}</updated>`,
    `    <link rel="alternate" type="text/html" href="${escapeXml(page)}"/>`,
    `    <content type="text">${escapeXml(entryText(entry, timeZone))}</content>`,
    '  </entry>',
  ].join('\n');
}

/**
 * /feed.xml: the latest entries of the declaration log (newest first) as an Atom feed, with absolute
 * addresses under `origin`.
 */
export function declarationFeed(
  origin: string,
  entries: readonly DeclarationEntry[],
  options: { timeZone: string; today: string },
  prepare: PrepareOptions,
): Promise<CachedAnswer> {
  const updated = entries[0]?.DeclaredAt ?? NEVER;
  const body = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeXml(`${origin}${FEED_PATH}`)}</id>`,
    `  <title>${escapeXml(`${SITE_NAME} – declarations`)}</title>`,
    '  <subtitle>Every result declared or corrected, from the public hash-chained declaration log.</subtitle>',
    `  <updated>${escapeXml(updated)}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(`${origin}${FEED_PATH}`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(`${origin}${DECLARATIONS_PATH}`)}"/>`,
    `  <author><name>${escapeXml(SITE_NAME)}</name></author>`,
    ...entries.map((entry) => entryXml(entry, origin, options.timeZone, options.today)),
    '</feed>',
    '',
  ].join('\n');
  return prepareAnswer(200, ATOM_TYPE, body, prepare);
}
