import type { PublicPageRenderer } from '../../../shared/public-page-data.js';
import { lowerOwnPriority } from '../../lib/niced-child-process.js';
import { encodeBodyNow } from '../model/cached-answer.js';
import { PageDocument } from './page-document.js';
import { RENDER_NICENESS, type RenderAnswer, type RenderMessage } from './page-render-pool.js';

/*
 * A process that renders public pages with the built server bundle (dist/ssr/entry-server.js), puts
 * them in the template and compresses them, at a lower priority (RENDER_NICENESS), so that none of it holds the
 * event loop that answers the kept pages (page-render-pool.ts, decision record 0017).
 */
lowerOwnPriority(RENDER_NICENESS);

function send(message: RenderAnswer | { ready: true }): void {
  process.send?.(message);
}

// The server that started this process is gone: nothing is left to render for.
process.on('disconnect', () => process.exit(0));

let loaded: Promise<{ renderer: PublicPageRenderer; document: PageDocument }> | undefined;

process.on('message', (message: RenderMessage) => {
  if ('init' in message) {
    const { bundleUrl, template } = message.init;
    loaded = import(bundleUrl).then((renderer: PublicPageRenderer) => ({
      renderer,
      document: new PageDocument(template),
    }));
    loaded.then(
      () => send({ ready: true }),
      (error: unknown) => {
        process.stderr.write(`the page renderer could not load its bundle: ${String(error)}\n`);
        process.exit(1);
      },
    );
    return;
  }
  const { id, page } = message;
  void loaded?.then(({ renderer, document }) => {
    try {
      const { data, origin, compress } = page;
      send({ id, ...encodeBodyNow(document.html(data, origin, renderer.renderPage(data)), compress) });
    } catch (error) {
      send({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  });
});
