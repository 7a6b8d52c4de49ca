import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { PublicPageData, PublicPageRenderer } from '../../../shared/public-page-data.js';
import {
  answerOf,
  type CachedAnswer,
  encodeBody,
  HTML_TYPE,
  type PrepareOptions,
} from '../model/cached-answer.js';
import { PageDocument } from './page-document.js';
import { type PageRenderer, PageRenderPool } from './page-render-pool.js';

/** The public pages as cached answers: rendered, assembled and compressed by a render process, or here. */
export class PublicPages {
  constructor(
    private readonly renderer: PageRenderer,
    private readonly pool: PageRenderPool | null = null,
  ) {}

  /**
   * The page as a cached answer (its Content-Security-Policy comes with every HTML answer's headers);
   * `origin` is PUBLIC_URL or null.
   */
  async page(
    status: number,
    data: PublicPageData,
    origin: string | null,
    options: PrepareOptions,
  ): Promise<CachedAnswer> {
    const encoded = await this.renderer.renderPage({ data, origin, compress: options.compress !== false });
    return answerOf(status, HTML_TYPE, encoded, options);
  }

  /** Stops the render processes, if any. */
  close(): Promise<void> {
    return this.pool?.close() ?? Promise.resolve();
  }
}

/** Renders on the event loop, compressing on zlib's threads (RENDER_PROCESSES=0, or none could start). */
function onEventLoop(template: string, bundle: PublicPageRenderer): PageRenderer {
  const document = new PageDocument(template);
  return {
    async renderPage({ data, origin, compress }) {
      // A build's data was read in the turn before (the database's driver answers at once): the
      // reads that came in meanwhile are answered before the rendering takes the event loop.
      await nextTurn();
      return encodeBody(document.html(data, origin, bundle.renderPage(data)), compress);
    },
  };
}

/**
 * The built public page (dist/web/public.html) and server bundle (dist/ssr/entry-server.js),
 * or null when they are not built (development through Vite: the SPA then renders the pages).
 */
export async function loadPublicPages(
  webRoot: string,
  renderProcesses: number,
  log: FastifyBaseLogger,
): Promise<PublicPages | null> {
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
  const template = fs.readFileSync(templateFile, 'utf8');
  const bundleUrl = pathToFileURL(bundleFile).href;
  if (renderProcesses > 0) {
    try {
      const pool = await PageRenderPool.start({ bundleUrl, template }, { processes: renderProcesses }, log);
      return new PublicPages(pool, pool);
    } catch (error) {
      log.warn({ err: error }, 'the page render processes did not start; pages render on the event loop');
    }
  }
  return new PublicPages(onEventLoop(template, (await import(bundleUrl)) as PublicPageRenderer));
}
