import type { Language } from '../../../shared/page-language.js';

/** What the chart pages say, in each of the site's languages. */
export interface ChartText {
  /** The year chart's heading: "Gali Chart 2025". */
  yearTitle: (name: string, year: number) => string;
  /** The monthly chart's heading, with the month's label: "Satta Chart November 2026". */
  monthTitle: (monthLabel: string) => string;
  /** A ghadi's results page, as a link names it: "Gali Results". */
  results: (name: string) => string;
  /** A month column's link, spelled out (its text is the short month name): "Gali results – January 2025". */
  monthResults: (name: string, monthLabel: string) => string;
  /** The column headers of a year chart, January first. */
  shortMonths: readonly string[];
  /** The list of every ghadi's year chart under the monthly chart. */
  yearCharts: (year: number) => string;
  day: string;
  noResult: string;
  noSuchDay: string;
  /** The legend's line for the ✱. */
  corrected: string;
  /** The legend's line for an open/close market's open half (`6-`), when the chart has one. */
  openHalf: string;
  /** What a cell's ✱ says to a screen reader (the chart has no earlier value to name). */
  today: string;
  previousYear: string;
  nextYear: string;
  otherYears: string;
  previousMonth: string;
  nextMonth: string;
  home: string;
  /** The names of the pages' link rows, as screen readers list them. */
  breadcrumb: string;
  yearLinks: string;
  monthLinks: string;
  scrollHint: string;
  /** Under the year chart once the ghadi is deleted while the page is open. */
  removed: string;
  /** A monthly chart when no ghadi is listed. */
  noGhadis: string;
}

export const CHART_TEXT: Record<Language, ChartText> = {
  en: {
    yearTitle: (name, year) => `${name} Chart ${year}`,
    monthTitle: (label) => `Satta Chart ${label}`,
    results: (name) => `${name} Results`,
    monthResults: (name, label) => `${name} results – ${label}`,
    shortMonths: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
    yearCharts: (year) => `Yearly charts ${year}`,
    day: 'Day',
    noResult: 'No result',
    noSuchDay: 'No such day',
    corrected: 'corrected after it was first declared',
    openHalf: 'open declared, close to come (tap a cell for the whole result)',
    today: 'today',
    previousYear: 'Previous year',
    nextYear: 'Next year',
    otherYears: 'Other years',
    previousMonth: 'Previous month',
    nextMonth: 'Next month',
    home: 'Home',
    breadcrumb: 'Breadcrumb',
    yearLinks: 'Years',
    monthLinks: 'Months',
    scrollHint: 'Scroll sideways →',
    removed: 'This ghadi is no longer listed: its chart is shown as it was.',
    noGhadis: 'No ghadi is listed yet.',
  },
  hi: {
    yearTitle: (name, year) => `${name} चार्ट ${year}`,
    monthTitle: (label) => `सट्टा चार्ट ${label}`,
    results: (name) => `${name} रिज़ल्ट`,
    monthResults: (name, label) => `${name} रिज़ल्ट – ${label}`,
    shortMonths: ['जन॰', 'फ़र॰', 'मार्च', 'अप्रै॰', 'मई', 'जून', 'जुला॰', 'अग॰', 'सित॰', 'अक्टू॰', 'नव॰', 'दिस॰'],
    yearCharts: (year) => `वार्षिक चार्ट ${year}`,
    day: 'दिन',
    noResult: 'कोई परिणाम नहीं',
    noSuchDay: 'ऐसी कोई तारीख नहीं',
    corrected: 'घोषणा के बाद सुधारा गया',
    openHalf: 'ओपन घोषित, क्लोज़ बाकी (पूरा रिज़ल्ट देखने के लिए सेल पर टैप करें)',
    today: 'आज',
    previousYear: 'पिछला वर्ष',
    nextYear: 'अगला वर्ष',
    otherYears: 'अन्य वर्ष',
    previousMonth: 'पिछला महीना',
    nextMonth: 'अगला महीना',
    home: 'होम',
    breadcrumb: 'नेविगेशन पथ',
    yearLinks: 'वर्ष',
    monthLinks: 'महीने',
    scrollHint: 'दाएँ-बाएँ स्क्रॉल करें →',
    removed: 'यह घड़ी अब सूची में नहीं है: इसका चार्ट जैसा था वैसा दिखाया गया है।',
    noGhadis: 'अभी कोई घड़ी सूची में नहीं है।',
  },
};
