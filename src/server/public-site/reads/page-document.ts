import { inLanguage, type Language } from '../../../shared/page-language.js';
import type { PublicPageData } from '../../../shared/public-page-data.js';
import { SITE_NAME } from '../../../shared/site.js';
import { alternatesOf, headFor, type PageHead, structuredData } from './page-heads.js';

/*
 * A public page's whole document around the markup React renders: the built template
 * (src/web/public.html) with the page's language, head tags and the data it hydrates with. Pure,
 * so that the render process (page-render-process.ts) and the event loop build it alike.
 */

/** The share image every page names (scripts/make-app-icons.ts draws it into the web app's files). */
const SHARE_IMAGE = {
  path: '/og-image.png',
  width: 1200,
  height: 630,
  alt: { en: `${SITE_NAME}: live results and monthly charts`, hi: `${SITE_NAME}: लाइव रिज़ल्ट और मासिक चार्ट` },
} as const;

/** Where the public page's built HTML (src/web/public.html) marks its slots. */
const SLOTS = {
  /** The page's language: the template's English is replaced by each page's own. */
  language: '<html lang="en">',
  head: '<!--page-head-->',
  body: '<!--page-body-->',
  data: '<!--page-data-->',
} as const;

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

/** The page's address in `language` under `origin` (PUBLIC_URL), or its path when there is none. */
function addressOf(origin: string | null, language: Language, path: string): string {
  return `${origin ?? ''}${inLanguage(language, path)}`;
}

function headHtml(head: PageHead, origin: string | null): string {
  const canonical = addressOf(origin, head.language, head.path);
  const lines = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
    `<link rel="canonical" href="${escapeHtml(canonical)}" />`,
  ];
  // A page kept out of search results names no alternate: its alternate is as empty as it is.
  if (!head.noIndex) {
    for (const [language, path] of alternatesOf(head))
      lines.push(
        `<link rel="alternate" hreflang="${language}" href="${escapeHtml(`${origin ?? ''}${path}`)}" />`,
      );
    lines.push(
      `<link rel="alternate" hreflang="x-default" href="${escapeHtml(addressOf(origin, 'en', head.path))}" />`,
    );
  }
  lines.push(
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    '<meta property="og:type" content="website" />',
    `<meta property="og:site_name" content="${escapeHtml(SITE_NAME)}" />`,
    `<meta property="og:locale" content="${head.language === 'hi' ? 'hi_IN' : 'en_IN'}" />`,
    // One brand image for every page (decision in docs/public-site.md): a value in a link preview
    // would go stale while chat apps keep showing it.
    `<meta property="og:image" content="${escapeHtml(`${origin ?? ''}${SHARE_IMAGE.path}`)}" />`,
    `<meta property="og:image:width" content="${SHARE_IMAGE.width}" />`,
    `<meta property="og:image:height" content="${SHARE_IMAGE.height}" />`,
    `<meta property="og:image:alt" content="${escapeHtml(SHARE_IMAGE.alt[head.language])}" />`,
    '<meta name="twitter:card" content="summary_large_image" />',
  );
  if (origin !== null) lines.push(`<meta property="og:url" content="${escapeHtml(canonical)}" />`);
  if (head.noIndex) lines.push('<meta name="robots" content="noindex" />');
  for (const feed of head.feeds ?? []) {
    lines.push(
      `<link rel="alternate" type="${escapeHtml(feed.type)}" href="${escapeHtml(`${origin ?? ''}${feed.href}`)}" ` +
        `title="${escapeHtml(feed.title)}" />`,
    );
  }
  // Data, never executed (so the CSP's script-src 'self' holds); jsonForScript keeps "</script>" out.
  for (const item of head.noIndex ? [] : structuredData(head, origin ?? ''))
    lines.push(`<script type="application/ld+json">${jsonForScript(item)}</script>`);
  return lines.join('\n    ');
}

/** The built template, split at its slots once. */
export class PageDocument {
  private readonly parts: [string, string, string, string, string];

  constructor(template: string) {
    const [beforeLanguage, afterLanguage] = splitOnce(template, SLOTS.language);
    const [beforeHead, afterHead] = splitOnce(afterLanguage, SLOTS.head);
    const [beforeBody, afterBody] = splitOnce(afterHead, SLOTS.body);
    const [beforeData, afterData] = splitOnce(afterBody, SLOTS.data);
    this.parts = [beforeLanguage, beforeHead, beforeBody, beforeData, afterData];
  }

  /** The page's HTML; `origin` is PUBLIC_URL or null, `markup` what React rendered from `data`. */
  html(data: PublicPageData, origin: string | null, markup: string): string {
    const head = headFor(data);
    const script = `<script type="application/json" id="page-data">${jsonForScript(data)}</script>`;
    const [beforeLanguage, beforeHead, beforeBody, beforeData, afterData] = this.parts;
    return (
      `${beforeLanguage}<html lang="${data.language}">${beforeHead}${headHtml(head, origin)}` +
      `${beforeBody}${markup}${beforeData}${script}${afterData}`
    );
  }
}

function splitOnce(text: string, marker: string): [string, string] {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`public.html has no ${marker} slot`);
  return [text.slice(0, at), text.slice(at + marker.length)];
}
