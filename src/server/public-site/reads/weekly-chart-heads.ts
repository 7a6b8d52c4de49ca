import { yearChartPath } from '../../../shared/chart-pages.js';
import { ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import { ghadiName, type Language } from '../../../shared/page-language.js';
import type { WeeklyChartPageData } from '../../../shared/public-page-data.js';
import { SITE_NAME } from '../../../shared/site.js';
import { weeklyChartApiPath, weeklyChartPath } from '../../../shared/weekly-chart-pages.js';
import type { PageHead } from './page-heads.js';

/** The weekly charts' names, as titles and trails say them: "Kalyan Jodi Chart 2026". */
const CHART_NAMES = {
  en: { jodi: 'Jodi Chart', panel: 'Panel Chart' },
  hi: { jodi: 'जोड़ी चार्ट', panel: 'पैनल चार्ट' },
} as const;

/** What each view shows of a day, for the description (a starline ghadi's jodi chart shows its ank). */
function shown(data: WeeklyChartPageData, language: Language): string {
  const starline = data.chart.Kind === 'panna';
  if (language === 'hi') {
    if (data.view === 'panel')
      return starline ? 'हर दिन का पाना और अंक' : 'हर दिन का ओपन पाना, जोड़ी और क्लोज़ पाना';
    return starline ? 'हर दिन का अंक' : 'हर दिन की जोड़ी';
  }
  if (data.view === 'panel')
    return starline ? "every day's panna and ank" : "every day's open panna, jodi and close panna";
  return starline ? "every day's ank" : "every day's jodi";
}

/** A weekly chart's head: its title, description, trail (ghadi, year chart, this chart) and Dataset. */
export function weeklyChartHead(data: WeeklyChartPageData, language: Language): PageHead {
  const { chart, view } = data;
  const name = ghadiName(chart, language);
  const other = language === 'hi' ? chart.NameEn : chart.NameHn;
  const also = other && other !== name ? ` (${other})` : '';
  const chartName = `${CHART_NAMES[language][view]} ${chart.year}`;
  const path = weeklyChartPath(view, chart.NameEn, chart.year);
  const title =
    language === 'hi'
      ? `${name} ${chartName} – साप्ताहिक सट्टा रिकॉर्ड | ${SITE_NAME}`
      : `${name} ${chartName} – Weekly Satta Record | ${SITE_NAME}`;
  const description =
    language === 'hi'
      ? `${name}${also} का ${chart.year} का ${CHART_NAMES.hi[view]}: ${shown(data, language)}, हर हफ़्ते की एक पंक्ति, सोमवार से।`
      : `${name}${also} ${CHART_NAMES.en[view].toLowerCase()} ${chart.year}: ${shown(data, language)}, a row a week from Monday.`;
  return {
    language,
    title,
    description,
    path,
    breadcrumbs: [
      { name, path: ghadiPagePath(chart.NameEn) },
      {
        name: language === 'hi' ? `चार्ट ${chart.year}` : `Chart ${chart.year}`,
        path: yearChartPath(chart.NameEn, chart.year),
      },
      { name: chartName, path },
    ],
    dataset: { temporalCoverage: String(chart.year), jsonPath: weeklyChartApiPath(chart.NameEn, chart.year) },
  };
}
