import { Feed } from 'feed';
import { correctionLabel } from '../../../shared/correction-label.js';
import { shortDate } from '../../../shared/date-labels.js';
import { timeInZone } from '../../../shared/dates.js';
import {
  ATOM_FEED_TYPE,
  ghadiAtomPath,
  ghadiJsonFeedPath,
  JSON_FEED_TYPE,
} from '../../../shared/ghadi-feed-paths.js';
import { ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import { isCorrection, receiptPath } from '../../../shared/receipt-codes.js';
import type { DeclarationEntry } from '../../../shared/schemas/declarations.js';
import { JSON_FEED_VERSION, type JsonFeed, jsonFeed } from '../../../shared/schemas/json-feed.js';
import { SITE_NAME } from '../../../shared/site.js';
import { type CachedAnswer, type PrepareOptions, prepareAnswer } from '../model/cached-answer.js';

/**
 * A ghadi's feeds for re-publishers (/satta-results/{name}/feed.xml and feed.json): its latest log
 * entries, declarations and corrections, newest first. Atom through the `feed` library; JSON Feed
 * 1.1 by its schema (the library writes version 1 only).
 */

/** How many entries a feed lists. */
export const FEED_ENTRIES = 50;

/** An empty feed has changed never: a fixed instant keeps its bytes (and ETag) the same. */
const NEVER = '1970-01-01T00:00:00.000Z';

export interface FeedGhadi {
  NameEn: string;
  NameHn: string;
}

/** An entry's id: its hash, which names it in the log forever (a rename or another address leaves it). */
export const feedEntryId = (hash: string) => `urn:ghadi-results:declaration:${hash}`;

/** "Gali: 45 (28 Nov 2026)"; a correction "Gali: 45 (28 Nov 2026, corrected, was 54)". */
export function feedEntryTitle(entry: DeclarationEntry): string {
  const date = shortDate(entry.Date);
  const when = isCorrection(entry) ? `${date}, ${correctionLabel(entry.Previous)}` : date;
  return `${entry.Name}: ${entry.Result} (${when})`;
}

function feedEntryText(entry: DeclarationEntry, ghadi: FeedGhadi, timeZone: string): string {
  const hindi = ghadi.NameHn.trim() === '' ? '' : ` (${ghadi.NameHn})`;
  const value = isCorrection(entry)
    ? `corrected to ${entry.Result} (it was ${entry.Previous})`
    : `declared ${entry.Result}`;
  return (
    `${entry.Name}${hindi}, ${shortDate(entry.Date)}: ${value} at ` +
    `${timeInZone(entry.DeclaredAt, timeZone)} (${timeZone}). Entry ${entry.seq} of the declaration ` +
    `log; hash ${entry.hash}, previous hash ${entry.prevHash}.`
  );
}

/**
 * The receipt page by the whole hash: always that one entry, where the shortest receipt could
 * lengthen when a later hash shares its start (the feed would then change without a drop).
 */
const entryLink = (origin: string, entry: DeclarationEntry) => `${origin}${receiptPath(entry.hash)}`;

export function atomFeed(
  origin: string,
  ghadi: FeedGhadi,
  entries: readonly DeclarationEntry[],
  timeZone: string,
): string {
  const page = `${origin}${ghadiPagePath(ghadi.NameEn)}`;
  const feed = new Feed({
    id: `${origin}${ghadiAtomPath(ghadi.NameEn)}`,
    title: `${ghadi.NameEn} results – ${SITE_NAME}`,
    description: `Every result of ${ghadi.NameEn} declared or corrected, from the public declaration log.`,
    link: page,
    language: 'en',
    updated: new Date(entries[0]?.DeclaredAt ?? NEVER),
    generator: SITE_NAME,
    copyright: SITE_NAME,
    feedLinks: {
      atom: `${origin}${ghadiAtomPath(ghadi.NameEn)}`,
      json: `${origin}${ghadiJsonFeedPath(ghadi.NameEn)}`,
    },
    author: { name: SITE_NAME, link: `${origin}/` },
  });
  for (const entry of entries) {
    feed.addItem({
      id: feedEntryId(entry.hash),
      title: feedEntryTitle(entry),
      link: entryLink(origin, entry),
      date: new Date(entry.DeclaredAt),
      description: feedEntryText(entry, ghadi, timeZone),
      ...(isCorrection(entry) ? { category: [{ name: 'correction', term: 'correction' }] } : {}),
    });
  }
  return feed.atom1();
}

export function jsonFeedOf(
  origin: string,
  ghadi: FeedGhadi,
  entries: readonly DeclarationEntry[],
  timeZone: string,
): JsonFeed {
  return jsonFeed.parse({
    version: JSON_FEED_VERSION,
    title: `${ghadi.NameEn} results – ${SITE_NAME}`,
    home_page_url: `${origin}${ghadiPagePath(ghadi.NameEn)}`,
    feed_url: `${origin}${ghadiJsonFeedPath(ghadi.NameEn)}`,
    description: `Every result of ${ghadi.NameEn} declared or corrected, from the public declaration log.`,
    language: 'en',
    authors: [{ name: SITE_NAME, url: `${origin}/` }],
    items: entries.map((entry) => {
      const correction = isCorrection(entry);
      return {
        id: feedEntryId(entry.hash),
        url: entryLink(origin, entry),
        external_url: `${origin}${ghadiPagePath(ghadi.NameEn)}`,
        title: feedEntryTitle(entry),
        content_text: feedEntryText(entry, ghadi, timeZone),
        date_published: entry.DeclaredAt,
        ...(correction ? { tags: ['correction'] } : {}),
        _declaration: {
          seq: entry.seq,
          GID: entry.GID,
          Date: entry.Date,
          Result: entry.Result,
          Previous: entry.Previous,
          DeclaredAt: entry.DeclaredAt,
          hash: entry.hash,
          prevHash: entry.prevHash,
          Step: entry.Step,
          correction,
        },
      };
    }),
  });
}

export type FeedFormat = 'atom' | 'json';

export const FEED_TYPES: Record<FeedFormat, string> = {
  atom: `${ATOM_FEED_TYPE}; charset=utf-8`,
  json: `${JSON_FEED_TYPE}; charset=utf-8`,
};

export function feedAnswer(
  format: FeedFormat,
  origin: string,
  ghadi: FeedGhadi,
  entries: readonly DeclarationEntry[],
  timeZone: string,
  options: PrepareOptions,
): Promise<CachedAnswer> {
  const body =
    format === 'atom'
      ? atomFeed(origin, ghadi, entries, timeZone)
      : JSON.stringify(jsonFeedOf(origin, ghadi, entries, timeZone));
  return prepareAnswer(200, FEED_TYPES[format], body, options);
}
