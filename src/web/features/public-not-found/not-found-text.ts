import type { Language } from '../../../shared/page-language.js';

/** What the site's 404 page says, in each of the site's languages. */
export interface NotFoundText {
  title: string;
  body: string;
  home: string;
  /** The link to this month's chart, with the month's label: "Satta Chart November 2026". */
  monthChart: (monthLabel: string) => string;
  /** The list of links' name, as screen readers list it. */
  links: string;
}

export const NOT_FOUND_TEXT: Record<Language, NotFoundText> = {
  en: {
    title: 'Page not found',
    body: 'There is nothing at this address: the page may have moved, or the chart asked for is not published.',
    home: 'Home page',
    monthChart: (label) => `Satta Chart ${label}`,
    links: 'Where to go',
  },
  hi: {
    title: 'पेज नहीं मिला',
    body: 'इस पते पर कुछ नहीं है: पेज हट गया होगा, या माँगा गया चार्ट प्रकाशित नहीं है।',
    home: 'होम पेज',
    monthChart: (label) => `सट्टा चार्ट ${label}`,
    links: 'कहाँ जाएँ',
  },
};
