import type { Language } from '../../../shared/page-language.js';
import type { WeeklyView } from '../../../shared/weekly-chart-pages.js';

/**
 * The weekly charts' names, which every chart page may link with (the table's own words, which
 * only the weekly charts' pages load, are weekly-table-text.ts's).
 */
export interface WeeklyChartText {
  /** The chart's name: "Jodi Chart", "Panel Chart"; its heading is "{name} {chart name} {year}". */
  chartNames: Record<WeeklyView, string>;
  /** The link rows' name: the weekly charts (on the year chart too). */
  weeklyCharts: string;
}

export const WEEKLY_CHART_TEXT: Record<Language, WeeklyChartText> = {
  en: { chartNames: { jodi: 'Jodi Chart', panel: 'Panel Chart' }, weeklyCharts: 'Weekly charts' },
  hi: { chartNames: { jodi: 'जोड़ी चार्ट', panel: 'पैनल चार्ट' }, weeklyCharts: 'साप्ताहिक चार्ट' },
};

/** A weekly chart's heading and link: "Kalyan Jodi Chart 2026", "कल्याण जोड़ी चार्ट 2026". */
export function weeklyTitle(language: Language, view: WeeklyView, name: string, year: number): string {
  return `${name} ${WEEKLY_CHART_TEXT[language].chartNames[view]} ${year}`;
}
