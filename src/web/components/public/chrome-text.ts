/**
 * What the public pages' chrome says (header, keyword strip, footer, share links), in each language.
 * Plain objects, no i18n library: the public bundle has a budget.
 */
import type { Language } from '../../../shared/page-language.js';
import type { TIME_TABLE } from '../../../shared/promo-tables.js';

type TimeTableName = (typeof TIME_TABLE)[number]['name'];

/** The spec's time table names its ghadis in English only; Hindi pages name them as readers say them. */
const HINDI_TIME_TABLE_NAMES: Record<TimeTableName, string> = {
  NCR: 'एनसीआर',
  'Delhi Bazar': 'दिल्ली बाज़ार',
  'Shiri Ganesh': 'श्री गणेश',
  Faridabad: 'फ़रीदाबाद',
  Ghaziabad: 'ग़ाज़ियाबाद',
  Gali: 'गली',
  Disawer: 'दिसावर',
};

/** A time table ghadi's name in a page's language. */
export function timeTableName(name: TimeTableName, language: Language): string {
  return language === 'hi' ? HINDI_TIME_TABLE_NAMES[name] : name;
}

interface ChromeText {
  nav: {
    label: string;
    home: string;
    liveChart: string;
    recordChart: string;
    timeTable: string;
    blog: string;
    charts: string;
  };
  keywordsLabel: string;
  /** The strip's keywords before and after one for each live ghadi. */
  keywordsBefore: readonly string[];
  keywordsAfter: readonly string[];
  /** A live ghadi's keyword, the words around its name in the page's language: "Gali Result". */
  ghadiKeyword: { before: string; after: string };
  rights: string;
  disclaimer: string;
  footerLinks: { home: string; liveChart: string; charts: string; declarations: string; sitemap: string };
  share: {
    label: string;
    text: (siteName: string) => string;
    whatsApp: string;
    telegram: string;
    top: string;
  };
}

export const CHROME_TEXT = {
  en: {
    nav: {
      label: 'Main',
      home: 'Home',
      liveChart: 'Live Chart',
      recordChart: 'Record Chart',
      timeTable: 'Time Table',
      blog: 'Blog',
      charts: 'Charts',
    },
    keywordsLabel: 'Keywords',
    keywordsBefore: ['Satta King Live Result'],
    keywordsAfter: ['Satta Chart', 'Monthly Record Chart', 'Fast Result'],
    ghadiKeyword: { before: '', after: ' Result' },
    rights: 'All rights reserved.',
    disclaimer: 'Results are published for information only. We do not accept or place bets.',
    footerLinks: {
      home: 'Home',
      liveChart: 'Live Chart',
      charts: 'Charts',
      declarations: 'Declaration log',
      sitemap: 'Sitemap',
    },
    share: {
      label: 'Share',
      text: (siteName) => `${siteName} – live results`,
      whatsApp: 'Share on WhatsApp',
      telegram: 'Share on Telegram',
      top: 'Back to top',
    },
  },
  hi: {
    nav: {
      label: 'मुख्य',
      home: 'होम',
      liveChart: 'लाइव चार्ट',
      recordChart: 'रिकॉर्ड चार्ट',
      timeTable: 'समय सारणी',
      blog: 'ब्लॉग',
      charts: 'मासिक चार्ट',
    },
    keywordsLabel: 'कीवर्ड',
    keywordsBefore: ['सट्टा किंग लाइव रिज़ल्ट'],
    keywordsAfter: ['सट्टा चार्ट', 'मासिक रिकॉर्ड चार्ट', 'फ़ास्ट रिज़ल्ट'],
    ghadiKeyword: { before: '', after: ' रिज़ल्ट' },
    rights: 'सर्वाधिकार सुरक्षित।',
    disclaimer: 'रिज़ल्ट केवल जानकारी के लिए प्रकाशित किए जाते हैं। हम न दांव लेते हैं, न लगाते हैं।',
    footerLinks: {
      home: 'होम',
      liveChart: 'लाइव चार्ट',
      charts: 'मासिक चार्ट',
      declarations: 'घोषणा लॉग',
      sitemap: 'साइटमैप',
    },
    share: {
      label: 'शेयर करें',
      text: (siteName) => `${siteName} – लाइव रिज़ल्ट`,
      whatsApp: 'WhatsApp पर शेयर करें',
      telegram: 'Telegram पर शेयर करें',
      top: 'ऊपर जाएँ',
    },
  },
} satisfies Record<Language, ChromeText>;
