import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { monthLabel, yearMonthLabel } from '../../../shared/date-labels.js';
import { declarationsPagePath, FEED_PATH } from '../../../shared/declaration-log-pages.js';
import { ghadiMonthPath } from '../../../shared/ghadi-page-month.js';
import type {
  DeclarationsPageData,
  HomePageData,
  PublicPageData,
  PublicPageRenderer,
  ResultsPageData,
} from '../../../shared/public-page-data.js';
import { SITE_NAME } from '../../../shared/site.js';
import { type CachedAnswer, HTML_TYPE, prepareAnswer } from './cached-answer.js';

/** Where the public page's built HTML (src/web/public.html) marks its slots. */
const SLOTS = { head: '<!--page-head-->', body: '<!--page-body-->', data: '<!--page-data-->' } as const;

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** JSON that is safe inside a <script> element: no "</script>", no line separators JavaScript trips on. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

interface PageHead {
  title: string;
  description: string;
  /** The page's own address: absolute under PUBLIC_URL, else a path (crawlers resolve it). */
  canonical: string;
  /** Open Graph wants an absolute address; without PUBLIC_URL there is none to give. */
  absolute: boolean;
  /** Pages that must stay out of search results (an unknown ghadi). */
  noIndex?: boolean;
  /** A feed of the same content, for readers that subscribe. */
  feed?: { href: string; title: string };
}

function homeHead(data: HomePageData, origin: string | null): PageHead {
  const names = data.ghadis.map((ghadi) => ghadi.NameEn);
  const listed = names.length > 0 ? `${names.join(', ')}: ` : '';
  return {
    title: `${SITE_NAME} – Today's Satta Results, Live Chart and ${yearMonthLabel(data.recordMonth)} Record`,
    description:
      `${listed}today's and yesterday's results, live as they are declared, ` +
      `and the monthly record chart for ${yearMonthLabel(data.recordMonth)}.`,
    canonical: `${origin ?? ''}/`,
    absolute: origin !== null,
  };
}

function resultsHead(data: ResultsPageData, origin: string | null): PageHead {
  const month = monthLabel(data.month, data.year);
  const name = data.ghadi?.NameEn ?? data.name;
  const path = ghadiMonthPath(name, data.month, data.year, data.today);
  if (!data.ghadi) {
    return {
      title: `No data available for ${data.name} – ${SITE_NAME}`,
      description: `There is no ghadi named ${data.name}.`,
      canonical: `${origin ?? ''}${path}`,
      absolute: origin !== null,
      noIndex: true,
    };
  }
  const hindi = data.ghadi.NameHn ? ` (${data.ghadi.NameHn})` : '';
  return {
    title: `${name} Satta Result ${month} – Chart and Record | ${SITE_NAME}`,
    description:
      `${name}${hindi} satta results for ${month}: the result of every day of the month, ` +
      `declared at ${data.ghadi.RTime}.`,
    canonical: `${origin ?? ''}${path}`,
    absolute: origin !== null,
  };
}

function declarationsHead(data: DeclarationsPageData, origin: string | null): PageHead {
  const page = data.pageNumber > 1 ? ` – Page ${data.pageNumber}` : '';
  return {
    title: `Declaration Log${page} – Every Result Declared, Hash-Chained | ${SITE_NAME}`,
    description:
      'Every result declared or corrected on this site, newest first, in a public hash-chained log ' +
      'that anyone can check.',
    canonical: `${origin ?? ''}${declarationsPagePath(data.pageNumber)}`,
    absolute: origin !== null,
    noIndex: data.pageNumber < 1 || data.pageNumber > data.pageCount,
    feed: { href: `${origin ?? ''}${FEED_PATH}`, title: `${SITE_NAME} – declarations` },
  };
}

function headFor(data: PublicPageData, origin: string | null): PageHead {
  switch (data.page) {
    case 'home':
      return homeHead(data, origin);
    case 'results':
      return resultsHead(data, origin);
    case 'declarations':
      return declarationsHead(data, origin);
  }
}

function headHtml(head: PageHead): string {
  const lines = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
    `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    '<meta property="og:type" content="website" />',
  ];
  if (head.absolute) lines.push(`<meta property="og:url" content="${escapeHtml(head.canonical)}" />`);
  if (head.noIndex) lines.push('<meta name="robots" content="noindex" />');
  if (head.feed) {
    lines.push(
      `<link rel="alternate" type="application/atom+xml" href="${escapeHtml(head.feed.href)}" ` +
        `title="${escapeHtml(head.feed.title)}" />`,
    );
  }
  return lines.join('\n    ');
}

/** Renders the public pages into the built HTML: head tags, the markup, and the data to hydrate with. */
export class PublicPages {
  private readonly parts: [string, string, string, string];

  constructor(
    template: string,
    private readonly renderer: PublicPageRenderer,
  ) {
    const [beforeHead, afterHead] = splitOnce(template, SLOTS.head);
    const [beforeBody, afterBody] = splitOnce(afterHead, SLOTS.body);
    const [beforeData, afterData] = splitOnce(afterBody, SLOTS.data);
    this.parts = [beforeHead, beforeBody, beforeData, afterData];
  }

  /**
   * The page as a cached answer (its Content-Security-Policy comes with every HTML answer's headers);
   * `origin` is PUBLIC_URL or null. `compress` is false for a page made for one request (compressing
   * costs more than it saves).
   */
  page(status: number, data: PublicPageData, origin: string | null, compress = true): Promise<CachedAnswer> {
    return prepareAnswer(status, HTML_TYPE, this.render(data, origin), compress);
  }

  render(data: PublicPageData, origin: string | null): string {
    const head = headFor(data, origin);
    const body = this.renderer.renderPage(data);
    const script = `<script type="application/json" id="page-data">${jsonForScript(data)}</script>`;
    const [beforeHead, beforeBody, beforeData, afterData] = this.parts;
    return `${beforeHead}${headHtml(head)}${beforeBody}${body}${beforeData}${script}${afterData}`;
  }
}

function splitOnce(text: string, marker: string): [string, string] {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`public.html has no ${marker} slot`);
  return [text.slice(0, at), text.slice(at + marker.length)];
}

/**
 * The built public page (dist/web/public.html) and server bundle (dist/ssr/entry-server.js),
 * or null when they are not built (development through Vite: the SPA then renders the pages).
 */
export async function loadPublicPages(webRoot: string, log: FastifyBaseLogger): Promise<PublicPages | null> {
  const templateFile = path.join(webRoot, 'public.html');
  const bundleFile = path.join(path.dirname(webRoot), 'ssr', 'entry-server.js');
  if (!fs.existsSync(templateFile) || !fs.existsSync(bundleFile)) {
    log.warn(
      { templateFile, bundleFile },
      'the public pages are not built (npm run build:web); / and /satta-results are rendered in the browser, ' +
        'and /declarations is not served',
    );
    return null;
  }
  const renderer = (await import(pathToFileURL(bundleFile).href)) as PublicPageRenderer;
  return new PublicPages(fs.readFileSync(templateFile, 'utf8'), renderer);
}
