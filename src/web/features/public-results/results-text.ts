/**
 * What a ghadi's results page says, in each language. English is the spec's wording, kept to the
 * letter (section 8's failure texts are PublicFetchError's own messages).
 */
import type { Language } from '../../../shared/page-language.js';
import { PublicFetchError } from '../../lib/public-fetch.js';

export interface ResultsText {
  back: string;
  heading: (name: string) => string;
  resultTime: (time: string) => string;
  /** An open/close market's times, in place of its result time. */
  marketTimes: (open: string, close: string) => string;
  yearChart: (name: string, year: number) => string;
  /** The link to the ghadi's result-time calendar (an .ics file). */
  calendar: string;
  month: string;
  year: string;
  show: string;
  loading: string;
  retry: string;
  noData: (name: string) => string;
  caption: (name: string, month: string) => string;
  day: string;
  result: string;
  /** The column of the times values were declared at. */
  declared: string;
  /** Today's row before its value: waiting, due at the ghadi's result time. */
  waiting: string;
  due: (time: string) => string;
  noResult: string;
  /** A day of the week the ghadi does not run. */
  closed: string;
  /** Under the table when some values have no time: they were not declared live. */
  addedLater: string;
  /** Beside a corrected value's time, what it replaced: "was 45". */
  was: (previous: string) => string;
  /** Why a month failed to load (section 8 tells a server status, no answer, and anything else apart). */
  failure: (error: unknown) => string;
}

const UNEXPECTED = 'An unexpected error occurred';

export const RESULTS_TEXT = {
  en: {
    back: '← Back to Chart',
    heading: (name) => `${name} Satta Result`,
    resultTime: (time) => `Result time ${time}`,
    marketTimes: (open, close) => `Open ${open} · Close ${close}`,
    yearChart: (name, year) => `${name} chart ${year} (all months) →`,
    calendar: 'Add to calendar',
    month: 'Month',
    year: 'Year',
    show: 'Show',
    loading: 'Loading…',
    retry: 'Retry',
    noData: (name) => `No data available for ${name}`,
    caption: (name, month) => `${name} results – ${month}`,
    day: 'Day',
    result: 'Result',
    declared: 'Declared',
    waiting: 'Waiting',
    due: (time) => `due ${time}`,
    noResult: 'No result',
    closed: 'Closed',
    addedLater:
      'A value without a time was added later (imported or entered after its day), not declared live.',
    was: (previous) => `was ${previous}`,
    failure: (error) => (error instanceof PublicFetchError ? error.message : UNEXPECTED),
  },
  hi: {
    back: '← चार्ट पर वापस',
    heading: (name) => `${name} सट्टा रिज़ल्ट`,
    resultTime: (time) => `रिज़ल्ट का समय ${time}`,
    marketTimes: (open, close) => `ओपन ${open} · क्लोज़ ${close}`,
    yearChart: (name, year) => `${name} चार्ट ${year} (सभी महीने) →`,
    calendar: 'कैलेंडर में जोड़ें',
    month: 'महीना',
    year: 'साल',
    show: 'दिखाएँ',
    loading: 'लोड हो रहा है…',
    retry: 'फिर से कोशिश करें',
    noData: (name) => `${name} के लिए कोई डेटा उपलब्ध नहीं है`,
    caption: (name, month) => `${name} रिज़ल्ट – ${month}`,
    day: 'दिन',
    result: 'रिज़ल्ट',
    declared: 'घोषित',
    waiting: 'इंतज़ार में',
    due: (time) => `समय ${time}`,
    noResult: 'कोई परिणाम नहीं',
    closed: 'बंद',
    addedLater:
      'जिस रिज़ल्ट के साथ समय नहीं है, वह बाद में जोड़ा गया (इम्पोर्ट या उस दिन के बाद दर्ज), लाइव घोषित नहीं हुआ।',
    was: (previous) => `पहले ${previous}`,
    failure: (error) => {
      const failure = error instanceof PublicFetchError ? error.failure : null;
      return failure?.kind === 'status'
        ? `सर्वर त्रुटि: ${failure.status}`
        : failure?.kind === 'network'
          ? 'नेटवर्क त्रुटि – कृपया अपना इंटरनेट कनेक्शन जाँचें'
          : 'कोई अनपेक्षित त्रुटि हुई';
    },
  },
} satisfies Record<Language, ResultsText>;
