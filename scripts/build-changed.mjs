/**
 * Builds what changed since the last build: the browser files, the page renderer and the server are
 * each rebuilt only when one of their inputs (sources, configuration, the lock file) differs from
 * what the last successful build of that part read, or its output is missing. `npm start` runs it,
 * so a restart of an unchanged checkout (a crash, a deploy of the same commit) is ready in seconds
 * rather than after a full build. `--all` rebuilds every part (`npm run build`).
 *
 * Plain JavaScript, not TypeScript: it runs before anything is built, on every start.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const STAMPS = path.join(ROOT, 'dist', '.build-inputs');
const SHARED = ['src/shared', 'package.json', 'package-lock.json', 'tsconfig.base.json'];
const WEB = [...SHARED, 'src/web', 'vite.config.ts', 'scripts/compressed-copies.ts', 'tsconfig.web.json'];

/** In build order: the server's tests of the built pages need the web build first. */
const PARTS = [
  { name: 'web', script: 'build:web', inputs: WEB, outputs: ['dist/web/index.html', 'dist/web/public.html'] },
  { name: 'ssr', script: 'build:ssr', inputs: WEB, outputs: ['dist/ssr/entry-server.js'] },
  {
    name: 'server',
    script: 'build:server',
    inputs: [...SHARED, 'src/server', 'tsconfig.server.json'],
    outputs: ['dist/server/server.js'],
  },
];

/** Every file under `entry` (or `entry` itself), sorted, skipping tests: what a build reads. */
function filesOf(entry) {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((item) => item.isFile() && !/\.test\.tsx?$/.test(item.name))
    .map((item) => path.relative(ROOT, path.join(item.parentPath ?? item.path, item.name)))
    .sort();
}

function fingerprint(inputs) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(filesOf)) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const all = process.argv.includes('--all');
fs.mkdirSync(STAMPS, { recursive: true });
for (const part of PARTS) {
  const stampFile = path.join(STAMPS, part.name);
  const wanted = fingerprint(part.inputs);
  const built = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8') : '';
  const present = part.outputs.every((output) => fs.existsSync(path.join(ROOT, output)));
  if (!all && present && built === wanted) {
    process.stdout.write(`build: ${part.name} is current\n`);
    continue;
  }
  // A failed or interrupted build must not leave a stamp that says it is current.
  fs.rmSync(stampFile, { force: true });
  const run = spawnSync('npm', ['run', '--silent', part.script], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  fs.writeFileSync(stampFile, wanted);
}
