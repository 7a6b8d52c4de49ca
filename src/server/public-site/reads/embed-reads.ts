import { z } from 'zod';
import { EMBED_BOARD_PATH, ghadiEmbedPath } from '../../../shared/embed-pages.js';
import { foldName } from '../../../shared/names.js';
import { inLanguage, LANGUAGES, type Language } from '../../../shared/page-language.js';
import { boardKeys, ghadiEmbedKeys } from '../model/answer-keys.js';
import { answerOf, encodeBody, HTML_TYPE, prepareAnswer, prepareFailure } from '../model/cached-answer.js';
import type { Built } from '../model/kept-entry.js';
import { EMBED_SCRIPT, EMBED_SCRIPT_ROUTE } from './embed-assets.js';
import { boardEmbedHtml, type EmbedFrame, ghadiEmbedHtml } from './embed-page.js';
import { NOTHING_HERE, notFoundPage } from './page-common.js';
import {
  cachingOf,
  defineRead,
  ghadiNameParams,
  kept,
  noQuery,
  type PublicRead,
  type ReadContext,
} from './read-definition.js';

/*
 * The embeds (docs/public-site.md, "Embeds"): pages other sites show in an iframe, kept and dropped
 * as every public answer is, and the only answers that allow framing (`frameable`).
 */

function frameOf(context: ReadContext, language: Language, version: number): EmbedFrame {
  return { language, version, today: context.model.today(), origin: context.publicUrl };
}

/** A ghadi's embed, or the site's 404 page for a name no live ghadi has (never kept). */
async function ghadiEmbed(
  name: string,
  context: ReadContext,
  language: Language,
  keep: boolean,
): Promise<Built> {
  const { model } = context;
  // Read first: the page then includes at least the changes up to it, and its stream starts there.
  const version = model.version;
  const ghadi = await model.ghadiNamed(name);
  if (!ghadi) return notFoundPage(context, language);
  const html = ghadiEmbedHtml(ghadi, frameOf(context, language, version));
  const caching = cachingOf(ghadiEmbedKeys(ghadi.GID), true);
  return {
    answer: await prepareAnswer(200, HTML_TYPE, html, { caching, compress: keep, frameable: true }),
    keep,
  };
}

async function boardEmbed(context: ReadContext, language: Language): Promise<Built> {
  const { model } = context;
  const version = model.version;
  const html = boardEmbedHtml(await model.ghadis(), frameOf(context, language, version));
  const caching = cachingOf(boardKeys(model.today()), true);
  return kept(await prepareAnswer(200, HTML_TYPE, html, { caching, frameable: true }));
}

function embedReads(language: Language): PublicRead[] {
  const at = (path: string) => inLanguage(language, path);
  return [
    defineRead({
      path: at(EMBED_BOARD_PATH),
      query: noQuery,
      access: 'public',
      pageOnly: true,
      key: () => 'board',
      build: (_, context) => boardEmbed(context, language),
    }),

    defineRead({
      path: at('/embed/:name'),
      params: ghadiNameParams,
      query: noQuery,
      access: 'public',
      pageOnly: true,
      // As the results page: kept under the folded name of a live ghadi alone; another spelling is
      // redirected there, and an unknown name's 404 is made for its request.
      key: ({ params }, { model }) =>
        params.name === model.keptName(params.name) && model.loadedGhadi(params.name) ? params.name : null,
      build: ({ params }, context) => ghadiEmbed(params.name, context, language, true),
      live: async ({ params }, context) => {
        const ghadi = await context.model.ghadiNamed(params.name);
        if (ghadi && params.name !== foldName(ghadi.NameEn))
          return { redirect: at(ghadiEmbedPath(ghadi.NameEn)) };
        return { ready: (await ghadiEmbed(params.name, context, language, false)).answer };
      },
    }),
  ];
}

const SCRIPT_TYPE = 'text/javascript; charset=utf-8';
const scriptParams = z.object({ hash: z.string().max(64) });

/** The embeds in both languages, and their script (one file, named by its hash). */
export const EMBED_READS: readonly PublicRead[] = [
  ...LANGUAGES.flatMap(embedReads),
  defineRead({
    path: EMBED_SCRIPT_ROUTE,
    params: scriptParams,
    query: noQuery,
    access: 'public',
    pageOnly: true,
    key: ({ params }) => (params.hash === EMBED_SCRIPT.hash ? 'script' : null),
    build: async () =>
      kept(
        answerOf(200, SCRIPT_TYPE, await encodeBody(EMBED_SCRIPT.text, true), {
          caching: { ...cachingOf([], false), immutable: true },
        }),
      ),
    // Another build's script: gone (its pages were dropped with the restart that replaced it).
    live: async () => ({ ready: await prepareFailure(404, 'No such script', NOTHING_HERE) }),
  }),
];
