/**
 * What a ghadi's results page says, in each language. English is the spec's wording, kept to the
 * letter (section 8's failure texts are PublicFetchError's own messages).
 */
import { correctionLabel } from '../../../shared/correction-label.js';
import type { Language } from '../../../shared/page-language.js';
import { PublicFetchError } from '../../lib/public-fetch.js';

export interface ResultsText {
  back: string;
  heading: (name: string) => string;
  resultTime: (time: string) => string;
  yearChart: (name: string, year: number) => string;
  month: string;
  year: string;
  show: string;
  loading: string;
  retry: string;
  noData: (name: string) => string;
  caption: (name: string, month: string) => string;
  day: string;
  result: string;
  /** Before the declared time, its space included: "declared 14:32". */
  declared: string;
  corrected: (previous: string | null) => string;
  /** Why a month failed to load (section 8 tells a server status, no answer, and anything else apart). */
  failure: (error: unknown) => string;
}

const UNEXPECTED = 'An unexpected error occurred';

export const RESULTS_TEXT = {
  en: {
    back: '← Back to Chart',
    heading: (name) => `${name} Satta Result`,
    resultTime: (time) => `Result time ${time}`,
    yearChart: (name, year) => `${name} chart ${year} (all months) →`,
    month: 'Month',
    year: 'Year',
    show: 'Show',
    loading: 'Loading…',
    retry: 'Retry',
    noData: (name) => `No data available for ${name}`,
    caption: (name, month) => `${name} results – ${month}`,
    day: 'Day',
    result: 'Result',
    declared: 'declared ',
    corrected: correctionLabel,
    failure: (error) => (error instanceof PublicFetchError ? error.message : UNEXPECTED),
  },
  hi: {
    back: '← चार्ट पर वापस',
    heading: (name) => `${name} सट्टा रिज़ल्ट`,
    resultTime: (time) => `रिज़ल्ट का समय ${time}`,
    yearChart: (name, year) => `${name} चार्ट ${year} (सभी महीने) →`,
    month: 'महीना',
    year: 'साल',
    show: 'दिखाएँ',
    loading: 'लोड हो रहा है…',
    retry: 'फिर से कोशिश करें',
    noData: (name) => `${name} के लिए कोई डेटा उपलब्ध नहीं है`,
    caption: (name, month) => `${name} रिज़ल्ट – ${month}`,
    day: 'दिन',
    result: 'रिज़ल्ट',
    declared: 'घोषित ',
    corrected: (previous) => correctionLabel(previous, 'hi'),
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
