import type { Language } from '../../../shared/page-language.js';

/** What the receipt page and the receipt panel (results page, year chart) say, in each language. */
export interface ReceiptText {
  receipt: string;
  heading: (receipt: string) => string;
  intro: string;
  ghadi: string;
  date: string;
  result: string;
  declared: string;
  /** "22 November 2026, 14:32 (Asia/Kolkata)". */
  declaredAt: (date: string, time: string, timeZone: string) => string;
  entry: string;
  hash: string;
  first: string;
  firstOpen: string;
  corrected: (previous: string) => string;
  completed: (open: string) => string;
  latest: (ghadi: string, date: string, value: string) => string;
  replaced: (next: { Result: string; Corrected: boolean }) => string;
  changedAgain: (value: string) => string;
  nextReceipt: string;
  currentReceipt: string;
  verifyHeading: string;
  verify: (seq: number) => string;
  verifyEntry: string;
  verifyLink: string;
  shared: string;
  monthResults: (ghadi: string, month: string) => string;
  share: string;
  copied: string;
  copyThis: string;
  /** The panel a tapped value opens. */
  panel: {
    loading: string;
    failed: string;
    retry: string;
    none: string;
    changed: (value: string) => string;
    open: string;
    close: string;
  };
}

export const RECEIPT_TEXT = {
  en: {
    receipt: 'Receipt',
    heading: (receipt) => `Receipt ${receipt}`,
    intro:
      'A receipt names one entry of this site’s public declaration log: the result below, exactly as it was declared. Nothing in the log can be changed or removed.',
    ghadi: 'Ghadi',
    date: 'Date',
    result: 'Result',
    declared: 'Declared',
    declaredAt: (date, time, timeZone) => `${date}, ${time} (${timeZone} time)`,
    entry: 'Log entry',
    hash: 'Hash',
    first: 'The first declaration of this result.',
    firstOpen: 'The first declaration of this day: its open half.',
    corrected: (previous) => `A correction: it replaced ${previous}.`,
    completed: (open) => `The close: it completed the open half ${open}. This is not a correction.`,
    latest: (ghadi, date, value) =>
      `This is the latest entry for ${ghadi} on ${date}: ${value} is the result this site shows.`,
    replaced: (next) =>
      next.Corrected
        ? `This is no longer the result: it was later corrected to ${next.Result}.`
        : `The close was declared later: the whole day is ${next.Result}.`,
    changedAgain: (value) => `It changed again afterwards: the result now is ${value}.`,
    nextReceipt: 'Receipt of that entry',
    currentReceipt: 'Receipt of the current result',
    verifyHeading: 'Check it yourself',
    verify: (seq) =>
      `This is entry ${seq} of the public log. Its hash covers every entry before it, so no entry can be changed or left out without changing every later hash. Recompute it from the log’s public data:`,
    verifyEntry: 'this entry in the log’s API',
    verifyLink: 'How to check the declaration log',
    shared:
      'Several entries’ hashes begin with this receipt. Find the one you were given by its ghadi, date and result, and open its own receipt:',
    monthResults: (ghadi, month) => `${ghadi} results, ${month}`,
    share: 'Share this receipt',
    copied: 'Link copied',
    copyThis: 'Copy this link:',
    panel: {
      loading: 'Loading the receipt…',
      failed: 'The receipt could not be loaded.',
      retry: 'Try again',
      none: 'This result has no entry in the declaration log.',
      changed: (value) => `The log now has ${value} for this day: this page was out of date.`,
      open: 'Open the receipt page',
      close: 'Close',
    },
  },
  hi: {
    receipt: 'रसीद',
    heading: (receipt) => `रसीद ${receipt}`,
    intro:
      'रसीद इस साइट के सार्वजनिक घोषणा लॉग की एक एंट्री बताती है: नीचे का रिज़ल्ट, ठीक वैसा जैसा घोषित हुआ। लॉग में कुछ भी बदला या हटाया नहीं जा सकता।',
    ghadi: 'घड़ी',
    date: 'तारीख़',
    result: 'रिज़ल्ट',
    declared: 'घोषित',
    declaredAt: (date, time, timeZone) => `${date}, ${time} (${timeZone} समय)`,
    entry: 'लॉग एंट्री',
    hash: 'हैश',
    first: 'इस रिज़ल्ट की पहली घोषणा।',
    firstOpen: 'इस दिन की पहली घोषणा: उसका ओपन।',
    corrected: (previous) => `एक सुधार: इसने ${previous} की जगह ली।`,
    completed: (open) => `क्लोज़: इसने ओपन ${open} को पूरा किया। यह सुधार नहीं है।`,
    latest: (ghadi, date, value) =>
      `${ghadi} की ${date} की यही नवीनतम एंट्री है: साइट पर ${value} ही रिज़ल्ट दिखता है।`,
    replaced: (next) =>
      next.Corrected
        ? `यह अब रिज़ल्ट नहीं है: बाद में इसे सुधारकर ${next.Result} किया गया।`
        : `क्लोज़ बाद में घोषित हुआ: पूरे दिन का रिज़ल्ट ${next.Result} है।`,
    changedAgain: (value) => `उसके बाद यह फिर बदला: अब रिज़ल्ट ${value} है।`,
    nextReceipt: 'उस एंट्री की रसीद',
    currentReceipt: 'मौजूदा रिज़ल्ट की रसीद',
    verifyHeading: 'ख़ुद जाँचें',
    verify: (seq) =>
      `यह सार्वजनिक लॉग की एंट्री ${seq} है। इसका हैश इससे पहले की हर एंट्री को समेटता है, इसलिए किसी एंट्री को बदलने या छोड़ने पर बाद का हर हैश बदल जाता है। इसे लॉग के सार्वजनिक डेटा से दोबारा निकालें:`,
    verifyEntry: 'लॉग के API में यह एंट्री',
    verifyLink: 'घोषणा लॉग की जाँच कैसे करें',
    shared:
      'कई एंट्रियों के हैश इसी रसीद से शुरू होते हैं। आपको जो मिली उसे घड़ी, तारीख़ और रिज़ल्ट से पहचानें और उसकी अपनी रसीद खोलें:',
    monthResults: (ghadi, month) => `${ghadi} रिज़ल्ट, ${month}`,
    share: 'यह रसीद शेयर करें',
    copied: 'लिंक कॉपी हो गया',
    copyThis: 'यह लिंक कॉपी करें:',
    panel: {
      loading: 'रसीद लोड हो रही है…',
      failed: 'रसीद लोड नहीं हो सकी।',
      retry: 'फिर कोशिश करें',
      none: 'इस रिज़ल्ट की घोषणा लॉग में कोई एंट्री नहीं है।',
      changed: (value) => `लॉग में अब इस दिन का रिज़ल्ट ${value} है: यह पेज पुराना था।`,
      open: 'रसीद का पेज खोलें',
      close: 'बंद करें',
    },
  },
} satisfies Record<Language, ReceiptText>;
