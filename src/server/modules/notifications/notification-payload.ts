import { timeInZone } from '../../../shared/dates.js';
import { ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import { inLanguage, type Language } from '../../../shared/page-language.js';
import type { PushPayload } from '../../../shared/schemas/push.js';

/** A declaration or correction as the channels word it. */
export interface Announcement {
  gid: number;
  nameEn: string;
  nameHn: string;
  value: string;
  /** The result's date (YYYY-MM-DD). */
  resultDate: string;
  /** When it was declared (ISO). */
  declaredAt: string;
  corrected: boolean;
}

const LOCALES: Record<Language, string> = { en: 'en-GB', hi: 'hi-IN' };
const CORRECTED: Record<Language, string> = { en: 'corrected', hi: 'सुधार' };

const dayFormats = new Map<Language, Intl.DateTimeFormat>();

/** "28 Nov" (or "28 नव॰"): the result's date, which is a calendar date, not an instant. */
function dayOf(date: string, language: Language): string {
  let format = dayFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALES[language], { day: 'numeric', month: 'short', timeZone: 'UTC' });
    dayFormats.set(language, format);
  }
  return format.format(new Date(`${date}T00:00:00Z`));
}

/** "28 Nov, 23:16": the result's date and the time it was declared, in the site's zone. */
function whenOf(announcement: Announcement, language: Language, timeZone: string): string {
  return `${dayOf(announcement.resultDate, language)}, ${timeInZone(announcement.declaredAt, timeZone)}`;
}

function nameIn(announcement: Announcement, language: Language): string {
  return language === 'hi' && announcement.nameHn.trim() !== '' ? announcement.nameHn : announcement.nameEn;
}

/**
 * The push service's Topic: one per ghadi, the same in both languages and for corrections, so that a
 * message still waiting at the push service is replaced by the newer one (RFC 8030 section 5.4).
 */
export function topicOf(gid: number): string {
  return `ghadi-${gid}`;
}

/** What the service worker shows: "Gali: 45", "28 Nov, 23:16", the ghadi's page, one tag per ghadi. */
export function pushPayloadOf(
  announcement: Announcement,
  language: Language,
  site: { publicUrl: string; timeZone: string },
): PushPayload {
  const when = whenOf(announcement, language, site.timeZone);
  return {
    title: `${nameIn(announcement, language)}: ${announcement.value}`,
    body: announcement.corrected ? `${when} · ${CORRECTED[language]}` : when,
    url: `${site.publicUrl}${inLanguage(language, ghadiPagePath(announcement.nameEn))}`,
    tag: topicOf(announcement.gid),
  };
}

/** The Telegram message: "Gali (गली): 45 — 28 Nov, 23:16", and "(corrected)" once corrected. */
export function telegramTextOf(announcement: Announcement, timeZone: string): string {
  const hindi = announcement.nameHn.trim();
  const name =
    hindi && hindi !== announcement.nameEn ? `${announcement.nameEn} (${hindi})` : announcement.nameEn;
  const text = `${name}: ${announcement.value} — ${whenOf(announcement, 'en', timeZone)}`;
  return announcement.corrected ? `${text} (corrected)` : text;
}
