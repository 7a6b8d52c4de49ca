import type { Language } from '../../../shared/page-language.js';
import type { WeeklyView } from '../../../shared/weekly-charts.js';

/** What the weekly charts say besides what every chart says (chart-text.ts), in each language. */
export interface WeeklyChartText {
  /** The chart's name: "Jodi Chart", "Panel Chart"; its heading is "{name} {chart name} {year}". */
  chartNames: Record<WeeklyView, string>;
  /** The first column's header: the rows are weeks. */
  week: string;
  /** Column headers, by weekday number (0 = Sunday). */
  weekdays: readonly string[];
  holiday: string;
  /** What a screen reader hears for the close part of an open half still to be declared. */
  closeToCome: string;
  /** A week's cell of a date in the year before or after the chart's. */
  notInYear: (year: number) => string;
  /** The link rows' names: the weekly charts (on the year chart too). */
  weeklyCharts: string;
}

export const WEEKLY_CHART_TEXT: Record<Language, WeeklyChartText> = {
  en: {
    chartNames: { jodi: 'Jodi Chart', panel: 'Panel Chart' },
    week: 'Week',
    weekdays: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
    holiday: 'Holiday',
    closeToCome: 'close to come',
    notInYear: (year) => `Not in ${year}`,
    weeklyCharts: 'Weekly charts',
  },
  hi: {
    chartNames: { jodi: 'जोड़ी चार्ट', panel: 'पैनल चार्ट' },
    week: 'सप्ताह',
    weekdays: ['रवि', 'सोम', 'मंगल', 'बुध', 'गुरु', 'शुक्र', 'शनि'],
    holiday: 'छुट्टी',
    closeToCome: 'क्लोज़ बाकी',
    notInYear: (year) => `${year} में नहीं`,
    weeklyCharts: 'साप्ताहिक चार्ट',
  },
};

/** A weekly chart's heading and link: "Kalyan Jodi Chart 2026", "कल्याण जोड़ी चार्ट 2026". */
export function weeklyTitle(language: Language, view: WeeklyView, name: string, year: number): string {
  return `${name} ${WEEKLY_CHART_TEXT[language].chartNames[view]} ${year}`;
}
