/**
 * Fails the build check when the JavaScript a visitor downloads for the public pages is over budget
 * (100 KB gzipped: the public entry, the hydration it loads after the first paint, and every chunk
 * they import statically), or when any of it comes
 * from the admin/agent screens, the router or the query library. Reads Vite's manifest and source maps
 * from dist/web; run after `npm run build:web`.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_BYTES = 100 * 1000;
const WEB_ROOT = path.resolve(process.argv[2] ?? 'dist/web');
const ENTRY = 'public.html';
/** Code a public visitor must never download. */
const FORBIDDEN_SOURCES =
  /src\/web\/(features\/(admin-dashboard|agents|ghadis|results|assignments|content-blocks|activity|agent-dashboard|auth)\/|components\/admin\/|app\/|lib\/session)|node_modules\/(react-router|@tanstack|zod|react-hook-form|recharts|victory-vendor|d3-[a-z-]+|@reduxjs|redux|immer)\//;

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

function fail(message: string): never {
  process.stderr.write(`check-public-budget: ${message}\n`);
  process.exit(1);
}

const manifestFile = path.join(WEB_ROOT, '.vite', 'manifest.json');
if (!fs.existsSync(manifestFile)) fail(`${manifestFile} is missing; run npm run build:web first`);
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
if (!manifest[ENTRY]) fail(`the manifest has no ${ENTRY} entry`);

/**
 * The entry and every chunk it imports statically. Its own dynamic imports count too: the entry
 * loads the page's hydration after the first paint on every page. Deeper ones load only on demand.
 */
const keys = new Set<string>();
const visit = (key: string) => {
  if (keys.has(key)) return;
  const chunk = manifest[key];
  if (!chunk) fail(`the manifest names ${key} but has no such chunk`);
  keys.add(key);
  for (const imported of chunk.imports ?? []) visit(imported);
};
visit(ENTRY);
for (const hydration of manifest[ENTRY]?.dynamicImports ?? []) visit(hydration);

const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(WEB_ROOT, file))).length;
const rows: Array<{ file: string; gzip: number }> = [];
const css = new Set<string>();
const forbidden: string[] = [];
for (const key of keys) {
  const chunk = manifest[key] as ManifestChunk;
  rows.push({ file: chunk.file, gzip: gzipSize(chunk.file) });
  const mapFile = path.join(WEB_ROOT, `${chunk.file}.map`);
  if (fs.existsSync(mapFile)) {
    const sources = (JSON.parse(fs.readFileSync(mapFile, 'utf8')) as { sources: string[] }).sources;
    for (const source of sources)
      if (FORBIDDEN_SOURCES.test(source)) forbidden.push(`${chunk.file}: ${source}`);
  }
}

// One stylesheet for every page (cssCodeSplit off), named by the page's template, not by a chunk.
for (const match of fs
  .readFileSync(path.join(WEB_ROOT, ENTRY), 'utf8')
  .matchAll(/<link rel="stylesheet"[^>]* href="\/([^"]+\.css)"/g))
  if (match[1]) css.add(match[1]);
const total = rows.reduce((sum, row) => sum + row.gzip, 0);
const cssTotal = [...css].reduce((sum, file) => sum + gzipSize(file), 0);
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
for (const row of rows.sort((a, b) => b.gzip - a.gzip))
  process.stdout.write(`  ${kb(row.gzip).padStart(9)}  ${row.file}\n`);
process.stdout.write(
  `Public page JavaScript: ${kb(total)} gzipped in ${rows.length} files (budget ${kb(BUDGET_BYTES)}); ` +
    `CSS ${kb(cssTotal)} gzipped.\n`,
);
if (forbidden.length > 0) fail(`the public page loads code it must not:\n  ${forbidden.join('\n  ')}`);
if (total > BUDGET_BYTES)
  fail(`the public page's JavaScript is ${kb(total)} gzipped, over the ${kb(BUDGET_BYTES)} budget`);
