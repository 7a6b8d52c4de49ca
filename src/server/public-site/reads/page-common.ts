import type { Language } from '../../../shared/page-language.js';
import type { GhadiNames, PublicPageData } from '../../../shared/public-page-data.js';
import { SITE_NAME } from '../../../shared/site.js';
import { isDatabaseUnavailable } from '../../db/database-errors.js';
import type { AnswerCaching } from '../model/cached-answer.js';
import type { Built } from '../model/kept-entry.js';
import type { ReadModel } from '../model/read-model.js';
import { cachingOf, type ReadContext } from './read-definition.js';

/* What every server-rendered page's builder uses: the renderer, the data all pages share, the 404 page. */

export function renderPage(
  context: ReadContext,
  status: number,
  data: PublicPageData,
  caching: AnswerCaching,
  compress = true,
) {
  if (!context.pages) throw new Error('The public pages are not built');
  return context.pages.page(status, data, context.publicUrl, { caching, compress });
}

/** A page about nothing that exists (an unknown address or ghadi): it may exist once the site changes. */
export const NOTHING_HERE = cachingOf([], true);

/** What the pages' data shares: the language, the site's name, day and zone, and the ticker's ghadis. */
export function pageBasics(model: ReadModel, language: Language, ghadiNames: GhadiNames[]) {
  return { language, siteName: SITE_NAME, today: model.today(), timeZone: model.timeZone, ghadiNames };
}

/** The site's 404 page in a language: the same for every address, so built once per site change and day. */
export async function notFoundPage(
  context: ReadContext,
  language: Language,
  caching: AnswerCaching = NOTHING_HERE,
): Promise<Built> {
  const { model } = context;
  const build = (ghadiNames: GhadiNames[]) =>
    renderPage(context, 404, { page: 'not-found', ...pageBasics(model, language, ghadiNames) }, caching);
  // A page that says there is nothing here needs no data: without the database it goes without them
  // (and that page, made for its request alone, is not the one kept).
  const ghadiNames = await Promise.resolve(model.ghadiNames()).catch((error: unknown) => {
    if (isDatabaseUnavailable(error)) return null;
    throw error;
  });
  const answer =
    ghadiNames === null
      ? await build([])
      : await context.notFound.answer(
          `${model.version} ${model.today()}`,
          `${language} ${caching.keys.join(' ')}`,
          () => build(ghadiNames),
        );
  return { answer, keep: false };
}
