import type { Language } from '../../../shared/page-language.js';

/** What a weekly chart's table and legend say besides what every chart says (chart-text.ts). */
export interface WeeklyTableText {
  /** The first column's header: the rows are weeks. */
  week: string;
  /** Column headers, by weekday number (0 = Sunday). */
  weekdays: readonly string[];
  holiday: string;
  /** What a screen reader hears for the close part of an open half still to be declared. */
  closeToCome: string;
  /** A week's cell of a date in the year before or after the chart's. */
  notInYear: (year: number) => string;
}

export const WEEKLY_TABLE_TEXT: Record<Language, WeeklyTableText> = {
  en: {
    week: 'Week',
    weekdays: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
    holiday: 'Holiday',
    closeToCome: 'close to come',
    notInYear: (year) => `Not in ${year}`,
  },
  hi: {
    week: 'सप्ताह',
    weekdays: ['रवि', 'सोम', 'मंगल', 'बुध', 'गुरु', 'शुक्र', 'शनि'],
    holiday: 'छुट्टी',
    closeToCome: 'क्लोज़ बाकी',
    notInYear: (year) => `${year} में नहीं`,
  },
};
