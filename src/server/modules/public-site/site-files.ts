import { DECLARATIONS_PATH } from '../../../shared/declaration-log-pages.js';
import { ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { type CachedAnswer, prepareAnswer } from './cached-answer.js';

/** Characters XML 1.0 does not allow at all (control characters): a reader would reject the whole feed. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text for XML content and attribute values (the sitemap's and the feed's). */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/**
 * /sitemap.xml: the home page, the declaration log (when the server renders pages) and every ghadi's
 * page, as absolute addresses under `origin`. `compress` is false for a file made for one request
 * (compressing it would cost more than it saves).
 */
export function sitemapXml(
  origin: string,
  ghadis: GhadiRecord[],
  withLog: boolean,
  compress = true,
): Promise<CachedAnswer> {
  const addresses = [
    `${origin}/`,
    ...(withLog ? [`${origin}${DECLARATIONS_PATH}`] : []),
    ...ghadis.map((ghadi) => `${origin}${ghadiPagePath(ghadi.NameEn)}`),
  ];
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...addresses.map(
      (address) => `  <url><loc>${escapeXml(address)}</loc><changefreq>daily</changefreq></url>`,
    ),
    '</urlset>',
    '',
  ].join('\n');
  return prepareAnswer(200, 'application/xml; charset=utf-8', body, compress);
}

/** /robots.txt: everything but the admin and agent areas, and where the sitemap is. */
export function robotsTxt(origin: string, compress = true): Promise<CachedAnswer> {
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin',
    'Disallow: /agent',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
  return prepareAnswer(200, 'text/plain; charset=utf-8', body, compress);
}
