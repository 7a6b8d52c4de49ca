/**
 * What the home page says, in each language. English is the spec's wording, kept to the letter.
 * Where numbers sit inside a sentence the text gives the pieces in order, so that each language puts
 * them where it says them.
 */
import { BLOG_MISSING_TEXT } from '../../../shared/home-content-blocks.js';
import type { Language } from '../../../shared/page-language.js';
import type { RATES } from '../../../shared/promo-tables.js';

type Game = (typeof RATES)[number]['game'];

export interface HomeText {
  title: string;
  announcement: string;
  blog: string;
  blogMissing: string;
  board: {
    heading: string;
    todayIs: (date: string) => string;
    /** The day's tally; `closed` (ghadis that do not run today) is named only when there are some. */
    counts: (declared: number, waiting: number, closed?: number) => (string | number)[];
    lastUpdated: string;
    zoneTime: (timeZone: string) => string;
    none: string;
    yesterday: string;
    today: string;
    wait: string;
    was: (previous: string) => string;
    declared: string;
    /** Before and after the declared time: "Declared at 13:52", "घोषित 13:52 बजे". */
    at: string;
    afterTime: string;
    next: string;
    waiting: string;
    due: (time: string) => string;
    /** Instead of waiting, on a ghadi's holiday or a weekday it does not run. */
    holiday: string;
    offDay: string;
    /** An open/close market's open half is in: "Open declared at 11:47". */
    openDeclared: string;
    /** An open/close market's times: "Open 11:45 AM", "Close 5:45 PM". */
    open: (time: string) => string;
    close: (time: string) => string;
  };
  record: {
    heading: string;
    caption: (month: string) => string;
    day: string;
    corrected: string;
    was: (name: string, day: string, previous: string) => string;
    fullChart: (month: string) => string;
    noResult: string;
    scrollHint: string;
  };
  rates: {
    title: (siteName: string) => string;
    rate: (game: string) => string;
    games: Record<Game, string>;
    /** Between stake and payout: "10 for 1050". */
    for: string;
    promises: readonly string[];
  };
  timeTable: { caption: string; ghadi: string; time: string };
  visitors: { heading: string; total: string; online: string };
}

export const HOME_TEXT = {
  en: {
    title: 'Satta Results Today – Live Chart',
    announcement: 'Announcement',
    blog: 'Blog',
    blogMissing: BLOG_MISSING_TEXT,
    board: {
      heading: 'Live Result Chart',
      todayIs: (date) => `Today is ${date}. Results appear here as they are declared.`,
      counts: (declared, waiting, closed = 0) =>
        closed > 0
          ? [declared, ' declared · ', waiting, ' waiting · ', closed, ' closed today']
          : [declared, ' declared · ', waiting, ' waiting today'],
      lastUpdated: 'Last updated',
      zoneTime: (timeZone) => ` (${timeZone} time)`,
      none: 'No ghadi yet.',
      yesterday: 'Yesterday',
      today: 'Today',
      wait: 'WAIT',
      was: (previous) => `was ${previous}`,
      declared: 'Declared',
      at: 'at ',
      afterTime: '',
      next: 'Next',
      waiting: 'Waiting',
      due: (time) => `due ${time}`,
      holiday: 'Holiday',
      offDay: 'Closed today',
      openDeclared: 'Open declared',
      open: (time) => `Open ${time}`,
      close: (time) => `Close ${time}`,
    },
    record: {
      heading: 'Monthly Record Chart',
      caption: (month) => `Record chart – ${month}`,
      day: 'Day',
      corrected: 'Corrected after it was first declared:',
      was: (name, day, previous) => `${name} ${day}: was ${previous}`,
      fullChart: (month) => `Full chart of ${month} →`,
      noResult: 'No result',
      scrollHint: 'Scroll sideways →',
    },
    rates: {
      title: (siteName) => `${siteName} – Game Rates`,
      rate: (game) => `${game} rate`,
      games: { Jodi: 'Jodi', Harup: 'Harup' },
      for: ' for ',
      promises: [
        'Every result on this page the moment it is declared – no need to reload.',
        'Today’s and yesterday’s result of every ghadi side by side.',
        'The full monthly record chart, and each ghadi’s results month by month.',
      ],
    },
    timeTable: { caption: 'Result Time Table', ghadi: 'Ghadi', time: 'Result time' },
    visitors: { heading: 'Visitors', total: 'Total visitors', online: 'Online now' },
  },
  hi: {
    title: 'आज के सट्टा रिज़ल्ट – लाइव चार्ट',
    announcement: 'सूचना',
    blog: 'ब्लॉग',
    blogMissing: 'यह अनुभाग नहीं मिला।',
    board: {
      heading: 'लाइव रिज़ल्ट चार्ट',
      todayIs: (date) => `आज ${date} है। रिज़ल्ट घोषित होते ही यहाँ दिखते हैं।`,
      counts: (declared, waiting, closed = 0) => [
        'आज ',
        declared,
        ' घोषित · ',
        waiting,
        ' इंतज़ार में',
        ...(closed > 0 ? [' · ', closed, ' बंद'] : []),
      ],
      lastUpdated: 'अंतिम अपडेट',
      zoneTime: (timeZone) => ` (${timeZone} समय)`,
      none: 'अभी कोई घड़ी नहीं है।',
      yesterday: 'कल',
      today: 'आज',
      wait: 'इंतज़ार',
      was: (previous) => `पहले ${previous}`,
      declared: 'घोषित',
      at: '',
      afterTime: ' बजे',
      next: 'अगला',
      waiting: 'इंतज़ार में',
      due: (time) => `समय ${time}`,
      holiday: 'छुट्टी',
      offDay: 'आज बंद',
      openDeclared: 'ओपन घोषित',
      open: (time) => `ओपन ${time}`,
      close: (time) => `क्लोज़ ${time}`,
    },
    record: {
      heading: 'मासिक रिकॉर्ड चार्ट',
      caption: (month) => `रिकॉर्ड चार्ट – ${month}`,
      day: 'दिन',
      corrected: 'पहली घोषणा के बाद सुधारे गए:',
      was: (name, day, previous) => `${name} ${day}: पहले ${previous}`,
      fullChart: (month) => `${month} का पूरा चार्ट →`,
      noResult: 'कोई परिणाम नहीं',
      scrollHint: 'दाएँ-बाएँ स्क्रॉल करें →',
    },
    rates: {
      title: (siteName) => `${siteName} – गेम रेट`,
      rate: (game) => `${game} रेट`,
      games: { Jodi: 'जोड़ी', Harup: 'हरूफ़' },
      for: ' के ',
      promises: [
        'हर रिज़ल्ट घोषित होते ही इसी पेज पर – रीलोड करने की ज़रूरत नहीं।',
        'हर घड़ी का आज और कल का रिज़ल्ट साथ-साथ।',
        'पूरा मासिक रिकॉर्ड चार्ट, और हर घड़ी के रिज़ल्ट महीने-दर-महीने।',
      ],
    },
    timeTable: { caption: 'रिज़ल्ट समय सारणी', ghadi: 'घड़ी', time: 'रिज़ल्ट समय' },
    visitors: { heading: 'विज़िटर', total: 'कुल विज़िटर', online: 'अभी ऑनलाइन' },
  },
} satisfies Record<Language, HomeText>;
