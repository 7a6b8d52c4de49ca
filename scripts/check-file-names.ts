/**
 * Fails `npm run lint` when a file name under src/, tests/, bench/ or scripts/ is not kebab-case, or
 * when two files there share a name: one name, one file, so that a name found in a stack trace, an
 * import or a search says which file it is. Biome checks the case of JavaScript and TypeScript names
 * (style/useFilenamingConvention) but not the other files, and cannot compare names across folders.
 *
 * A name is compared without its last extension, so results-view.ts and results-view.tsx are one
 * name; results-view.test.tsx is another. Playwright's *.spec.ts and README.md are left out.
 * Lists the files git knows (tracked, and new files not ignored). Run: `npx tsx scripts/check-file-names.ts`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOTS = ['src', 'tests', 'bench', 'scripts'];

/** Lower-case ASCII words joined by dashes, then extensions in the same style: `use-app-form.test.tsx`. */
const KEBAB_CASE = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$/;

/** Names that are conventional, not ours to choose: exempt from both checks. */
const CONVENTIONAL = new Set(['README.md']);

function fail(problems: string[]): never {
  process.stderr.write(`check-file-names: ${problems.length} problem(s)\n`);
  for (const problem of problems) process.stderr.write(`  ${problem}\n`);
  process.exit(1);
}

const files = execFileSync(
  'git',
  ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...ROOTS],
  {
    encoding: 'utf8',
  },
)
  .split('\0')
  .filter((file) => file !== '' && fs.existsSync(file));

const problems: string[] = [];
const byName = new Map<string, string[]>();
for (const file of [...new Set(files)].sort()) {
  const base = path.posix.basename(file);
  if (CONVENTIONAL.has(base)) continue;
  if (!KEBAB_CASE.test(base))
    problems.push(`${file}: the name is not kebab-case (lower-case ASCII words and dashes)`);
  if (base.endsWith('.spec.ts')) continue;
  const name = base.slice(0, base.lastIndexOf('.'));
  byName.set(name, [...(byName.get(name) ?? []), file]);
}

for (const [name, paths] of byName) {
  if (paths.length < 2) continue;
  problems.push(`"${name}" names ${paths.length} files: ${paths.join(' and ')}; rename all but one`);
}
if (problems.length > 0) fail(problems);
process.stdout.write(
  `check-file-names: ${byName.size} names in ${ROOTS.join(', ')}, each unique and kebab-case\n`,
);
