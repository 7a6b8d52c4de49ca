/**
 * What each public page says of itself in its <head>, in its language: title, description, its own
 * address and its other-language alternate's, and structured data (JSON-LD) for search engines. The
 * rendering into tags is page-html.ts's.
 */
import {
  monthChartApiPath,
  monthChartPath,
  yearChartApiPath,
  yearChartPath,
} from '../../../shared/chart-pages.js';
import { monthLabel, yearMonthLabel } from '../../../shared/date-labels.js';
import { declarationsPagePath, FEED_PATH } from '../../../shared/declaration-log-pages.js';
import {
  ATOM_FEED_TYPE,
  ghadiAtomPath,
  ghadiCalendarPath,
  ghadiJsonFeedPath,
  JSON_FEED_TYPE,
} from '../../../shared/ghadi-feed-paths.js';
import { ghadiMonthPath, ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import { ghadiName, inLanguage, LANGUAGES, type Language } from '../../../shared/page-language.js';
import type {
  DeclarationsPageData,
  HomePageData,
  MonthChartPageData,
  PublicPageData,
  ResultsPageData,
  YearChartPageData,
} from '../../../shared/public-page-data.js';
import { SITE_NAME } from '../../../shared/site.js';
import { receiptHead } from './receipt-heads.js';
import { weeklyChartHead } from './weekly-chart-heads.js';

/** One step of a page's breadcrumb trail: its name and English path. */
interface Crumb {
  name: string;
  path: string;
}

/** A chart's data set, for the Dataset structured data. */
interface DatasetHead {
  /** The period the chart covers (ISO 8601: a year or a month). */
  temporalCoverage: string;
  /** The same data as JSON (the chart's public API answer). */
  jsonPath: string;
}

export interface PageHead {
  language: Language;
  title: string;
  description: string;
  /** The page's English path (with its query, if any): its own address is this path in `language`. */
  path: string;
  /** Pages that must stay out of search results (an unknown ghadi, a 404). */
  noIndex?: boolean;
  /** Feeds (and calendars) of the same content, for readers that subscribe: `<link rel="alternate" type>`. */
  feeds?: FeedLink[];
  /** The trail from the home page to this one (the last step is the page itself). */
  breadcrumbs?: Crumb[];
  dataset?: DatasetHead;
}

export interface FeedLink {
  href: string;
  title: string;
  /** Its media type, without parameters. */
  type: string;
}

type Texts = Record<Language, string>;

/** A ghadi's feeds and calendar, named in its results page's head (English: the files are). */
function ghadiFeedsOf(nameEn: string): FeedLink[] {
  return [
    { href: ghadiAtomPath(nameEn), title: `${nameEn} results (Atom)`, type: ATOM_FEED_TYPE },
    { href: ghadiJsonFeedPath(nameEn), title: `${nameEn} results (JSON Feed)`, type: JSON_FEED_TYPE },
    { href: ghadiCalendarPath(nameEn), title: `${nameEn} result times (calendar)`, type: 'text/calendar' },
  ];
}

const HOME_NAME: Texts = { en: 'Home', hi: 'होम' };

/** Ghadi names joined for a description, in the page's language. */
function namesOf(ghadis: readonly { NameEn: string; NameHn: string }[], language: Language): string {
  return ghadis.map((ghadi) => ghadiName(ghadi, language)).join(', ');
}

function homeHead(data: HomePageData, language: Language): PageHead {
  const month = yearMonthLabel(data.recordMonth, language);
  const names = namesOf(data.ghadis, language);
  const listed = names ? `${names}: ` : '';
  return language === 'hi'
    ? {
        language,
        title: `${SITE_NAME} – आज के सट्टा रिज़ल्ट, लाइव चार्ट और ${month} रिकॉर्ड`,
        description: `${listed}आज और कल के रिज़ल्ट, घोषित होते ही लाइव, और ${month} का मासिक रिकॉर्ड चार्ट।`,
        path: '/',
      }
    : {
        language,
        title: `${SITE_NAME} – Today's Satta Results, Live Chart and ${month} Record`,
        description:
          `${listed}today's and yesterday's results, live as they are declared, ` +
          `and the monthly record chart for ${month}.`,
        path: '/',
      };
}

function resultsHead(data: ResultsPageData, language: Language): PageHead {
  const month = monthLabel(data.month, data.year, language);
  const path = ghadiMonthPath(data.ghadi?.NameEn ?? data.name, data.month, data.year, data.today);
  if (!data.ghadi) {
    return {
      language,
      title:
        language === 'hi'
          ? `${data.name} का कोई डेटा नहीं – ${SITE_NAME}`
          : `No data available for ${data.name} – ${SITE_NAME}`,
      description:
        language === 'hi' ? `${data.name} नाम की कोई घड़ी नहीं है।` : `There is no ghadi named ${data.name}.`,
      path,
      noIndex: true,
    };
  }
  const name = ghadiName(data.ghadi, language);
  const breadcrumbs = [{ name: `${name} – ${month}`, path }];
  if (language === 'hi') {
    return {
      language,
      title: `${name} सट्टा रिज़ल्ट ${month} – चार्ट और रिकॉर्ड | ${SITE_NAME}`,
      description: `${name} (${data.ghadi.NameEn}) के ${month} के सट्टा रिज़ल्ट: महीने के हर दिन का रिज़ल्ट, घोषणा का समय ${data.ghadi.RTime}।`,
      path,
      breadcrumbs,
      feeds: ghadiFeedsOf(data.ghadi.NameEn),
    };
  }
  const hindi = data.ghadi.NameHn ? ` (${data.ghadi.NameHn})` : '';
  return {
    language,
    title: `${name} Satta Result ${month} – Chart and Record | ${SITE_NAME}`,
    description:
      `${name}${hindi} satta results for ${month}: the result of every day of the month, ` +
      `declared at ${data.ghadi.RTime}.`,
    path,
    breadcrumbs,
    feeds: ghadiFeedsOf(data.ghadi.NameEn),
  };
}

function yearChartHead({ chart }: YearChartPageData, language: Language): PageHead {
  const name = ghadiName(chart, language);
  const other = language === 'hi' ? chart.NameEn : chart.NameHn;
  const also = other && other !== name ? ` (${other})` : '';
  const path = yearChartPath(chart.NameEn, chart.year);
  const title =
    language === 'hi'
      ? `${name} वार्षिक चार्ट ${chart.year} – सट्टा रिज़ल्ट रिकॉर्ड | ${SITE_NAME}`
      : `${name} Yearly Chart ${chart.year} – Satta Result Record | ${SITE_NAME}`;
  const description =
    language === 'hi'
      ? `${name}${also} का ${chart.year} का वार्षिक चार्ट: जनवरी से दिसंबर तक हर दिन का रिज़ल्ट, एक तालिका में।`
      : `${name}${also} yearly chart ${chart.year}: the result of every day from January to December, in one table.`;
  return {
    language,
    title,
    description,
    path,
    breadcrumbs: [
      { name, path: ghadiPagePath(chart.NameEn) },
      { name: language === 'hi' ? `चार्ट ${chart.year}` : `Chart ${chart.year}`, path },
    ],
    dataset: { temporalCoverage: String(chart.year), jsonPath: yearChartApiPath(chart.NameEn, chart.year) },
  };
}

function monthChartHead({ chart }: MonthChartPageData, language: Language): PageHead {
  const month = yearMonthLabel(chart.month, language);
  const names = namesOf(chart.ghadis, language);
  const path = monthChartPath(chart.month);
  const title =
    language === 'hi'
      ? `सट्टा चार्ट ${month} – सभी घड़ियों के रिज़ल्ट | ${SITE_NAME}`
      : `Satta Chart ${month} – Every Ghadi's Results | ${SITE_NAME}`;
  const description =
    language === 'hi'
      ? `${month} का रिकॉर्ड चार्ट: ${names ? `${names} – ` : ''}महीने के हर दिन का रिज़ल्ट।`
      : `The ${month} record chart: ${names ? `${names} – ` : ''}the result of every day of the month.`;
  return {
    language,
    title,
    description,
    path,
    breadcrumbs: [{ name: language === 'hi' ? `चार्ट ${month}` : `Chart ${month}`, path }],
    dataset: { temporalCoverage: chart.month, jsonPath: monthChartApiPath(chart.month) },
  };
}

function declarationsHead(data: DeclarationsPageData, language: Language): PageHead {
  const path = declarationsPagePath(data.pageNumber);
  const hindi = language === 'hi';
  const page = data.pageNumber > 1 ? ` – ${hindi ? 'पेज' : 'Page'} ${data.pageNumber}` : '';
  return {
    language,
    title: hindi
      ? `घोषणा लॉग${page} – हर घोषित रिज़ल्ट, हैश-शृंखला में | ${SITE_NAME}`
      : `Declaration Log${page} – Every Result Declared, Hash-Chained | ${SITE_NAME}`,
    description: hindi
      ? 'इस साइट पर घोषित या सुधारा गया हर रिज़ल्ट, नया सबसे ऊपर, एक सार्वजनिक हैश-शृंखला लॉग में जिसे कोई भी जाँच सकता है।'
      : 'Every result declared or corrected on this site, newest first, in a public hash-chained log ' +
        'that anyone can check.',
    path,
    noIndex: data.pageNumber < 1 || data.pageNumber > data.pageCount,
    feeds: [{ href: FEED_PATH, title: `${SITE_NAME} – declarations`, type: ATOM_FEED_TYPE }],
    breadcrumbs: [{ name: hindi ? 'घोषणा लॉग' : 'Declaration log', path }],
  };
}

function notFoundHead(language: Language): PageHead {
  return {
    language,
    title: language === 'hi' ? `पेज नहीं मिला – ${SITE_NAME}` : `Page not found – ${SITE_NAME}`,
    description: language === 'hi' ? 'इस पते पर कोई पेज नहीं है।' : 'There is no page at this address.',
    path: '/',
    noIndex: true,
  };
}

export function headFor(data: PublicPageData): PageHead {
  const { language } = data;
  switch (data.page) {
    case 'home':
      return homeHead(data, language);
    case 'results':
      return resultsHead(data, language);
    case 'year-chart':
      return yearChartHead(data, language);
    case 'weekly-chart':
      return weeklyChartHead(data, language);
    case 'month-chart':
      return monthChartHead(data, language);
    case 'declarations':
      return declarationsHead(data, language);
    case 'receipt':
      return receiptHead(data, language);
    case 'not-found':
      return notFoundHead(language);
  }
}

/** The structured data of a page (schema.org, as JSON-LD), with addresses under `origin` ('' for paths). */
export function structuredData(head: PageHead, origin: string): object[] {
  const at = (path: string) => `${origin}${inLanguage(head.language, path)}`;
  const items: object[] = [];
  if (head.breadcrumbs) {
    const trail = [{ name: `${SITE_NAME} – ${HOME_NAME[head.language]}`, path: '/' }, ...head.breadcrumbs];
    items.push({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: trail.map((crumb, index) => ({
        '@type': 'ListItem',
        position: index + 1,
        name: crumb.name,
        item: at(crumb.path),
      })),
    });
  }
  if (head.dataset) {
    items.push({
      '@context': 'https://schema.org',
      '@type': 'Dataset',
      name: head.title.split(' | ')[0],
      description: head.description,
      url: at(head.path),
      inLanguage: head.language,
      temporalCoverage: head.dataset.temporalCoverage,
      isAccessibleForFree: true,
      creator: { '@type': 'Organization', name: SITE_NAME },
      distribution: {
        '@type': 'DataDownload',
        encodingFormat: 'application/json',
        contentUrl: `${origin}${head.dataset.jsonPath}`,
      },
    });
  }
  return items;
}

/** The page in every language, for hreflang links: [language, path in it]. */
export function alternatesOf(head: PageHead): [Language, string][] {
  return LANGUAGES.map((language) => [language, inLanguage(language, head.path)]);
}
