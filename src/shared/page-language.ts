/**
 * The public pages' two languages: English at the site's own addresses, Hindi at the same address
 * under /hi. Pure: the server (heads, sitemap, routes) and the pages (links, the switch) share it.
 */

export const LANGUAGES = ['en', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];

export const HINDI_PREFIX = '/hi';

/** A public page's address in a language: `/satta-results/gali` → `/hi/satta-results/gali`; `/` → `/hi`. */
export function inLanguage(language: Language, path: string): string {
  if (language === 'en') return path;
  return path === '/' || path.startsWith('/?') || path.startsWith('/#')
    ? `${HINDI_PREFIX}${path.slice(1)}`
    : `${HINDI_PREFIX}${path}`;
}

/** The language an address is in: Hindi under /hi, English elsewhere. */
export function languageOfPath(path: string): Language {
  return path === HINDI_PREFIX || path.startsWith(`${HINDI_PREFIX}/`) ? 'hi' : 'en';
}

/** The other language (the switch's target). */
export function otherLanguage(language: Language): Language {
  return language === 'en' ? 'hi' : 'en';
}

/** What the switch says, in the language it switches to (a reader of that language finds it). */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', hi: 'हिन्दी' };

/** A ghadi's name as a page in `language` shows it: NameHn in Hindi when it has one. */
export function ghadiName(ghadi: { NameEn: string; NameHn: string }, language: Language): string {
  return language === 'hi' && ghadi.NameHn.trim() !== '' ? ghadi.NameHn : ghadi.NameEn;
}
