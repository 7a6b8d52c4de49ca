import fs from 'node:fs';
import path from 'node:path';

/**
 * A stand-in for `npm run build`'s public pages in `dir`: the template with its slots and a renderer
 * that prints the page kind. The server then serves the pages (and lists them) with no build needed.
 * Answers the web root to give the app.
 */
export function writePagesBuild(dir: string): string {
  const webRoot = path.join(dir, 'web');
  fs.mkdirSync(webRoot, { recursive: true });
  fs.mkdirSync(path.join(dir, 'ssr'), { recursive: true });
  fs.writeFileSync(
    path.join(webRoot, 'public.html'),
    '<!doctype html><html lang="en"><head><!--page-head--></head><body><!--page-body--><!--page-data--></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
  fs.writeFileSync(
    path.join(dir, 'ssr', 'entry-server.js'),
    "export function renderPage(data) { return '<main>' + data.page + '</main>'; }\n",
  );
  return webRoot;
}
