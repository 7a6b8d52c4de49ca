/**
 * The hardening group's first finding (hardening-checks.ts): addresses spelled many ways must not
 * multiply what the server keeps. 2 000 case variants of ghadi names on GET /api/results/{name} (one
 * answer, kept under the folded name: every variant gets the canonical answer's ETag) and on
 * /satta-results/{name} (301 to the lower-case address), and 2 000 distinct unaligned `after` values
 * on GET /api/declarations (answered for their request alone), sent from 200 client addresses named in
 * X-Forwarded-For (the server trusts 127.0.0.1 as its proxy; 30 requests an address, under the
 * 60-a-minute public query limit). Passes when the process's settled RSS ends within 50 MB of where it
 * started and GET /api/home, read meanwhile on a thread of its own, keeps its p99 under 50 ms.
 */
import type { ServerProcess } from '../lib/server-process.js';
import { jsonOf, timedRequest } from '../lib/timed-request.js';
import { check } from './check.js';
import { describeLatency, runPool, sampleLatency, settledResidentMb } from './hardening-probes.js';
import type { CheckResult } from './types.js';

const VARIANTS = 2000;
const AFTER_VALUES = 2000;
const ADDRESSES = 200;
const CONCURRENCY = 8;
const FLOOD_LIMIT_MS = 150_000;
const MAX_GROWTH_MB = 50;
const HOME_P99_MS = 50;

/** Every spelling of `name` with some of its letters upper case, the all-lower-case one left out. */
function caseVariants(name: string): string[] {
  const lower = [...name.normalize('NFC').toLowerCase()];
  const letters = lower.flatMap((char, index) => (char.toUpperCase() !== char ? [index] : []));
  const count = 2 ** Math.min(letters.length, 20);
  const variants: string[] = [];
  for (let mask = 1; mask < count && variants.length < VARIANTS; mask++) {
    const chars = [...lower];
    letters.forEach((position, bit) => {
      if (mask & (1 << bit)) chars[position] = chars[position]?.toUpperCase() ?? '';
    });
    variants.push(chars.join(''));
  }
  return variants;
}

/** VARIANTS spellings taken in turn from every ghadi's name, with the name each folds to. */
function spreadVariants(names: string[]): Array<{ variant: string; name: string }> {
  const lists = names.map((name) => ({ name: name.toLowerCase(), variants: caseVariants(name) }));
  const chosen: Array<{ variant: string; name: string }> = [];
  for (let round = 0; chosen.length < VARIANTS; round++) {
    const before = chosen.length;
    for (const list of lists) {
      const variant = list.variants[round];
      if (variant !== undefined && chosen.length < VARIANTS) chosen.push({ variant, name: list.name });
    }
    if (chosen.length === before) throw new Error(`the ghadi names give only ${chosen.length} case variants`);
  }
  return chosen;
}

type Kind = 'api' | 'page' | 'log';
interface Sent {
  kind: Kind;
  status: number;
  /** Whether the answer was the one expected for it (same ETag, the canonical Location, the window asked). */
  right: boolean;
}

const count = (sent: Sent[], kind: Kind, what: (one: Sent) => boolean) =>
  sent.filter((one) => one.kind === kind && what(one)).length;

function statusesOf(sent: Sent[], kind: Kind): string {
  const statuses = new Map<number, number>();
  for (const one of sent)
    if (one.kind === kind) statuses.set(one.status, (statuses.get(one.status) ?? 0) + 1);
  return [...statuses].map(([status, times]) => `${times}×${status}`).join(' ');
}

export async function spellingFloodCheck(site: ServerProcess, hooked: boolean): Promise<CheckResult> {
  return check(
    `${VARIANTS} name spellings (API and pages) and ${AFTER_VALUES} log windows: RSS within ${MAX_GROWTH_MB} MB, /api/home p99 < ${HOME_P99_MS} ms`,
    async () => {
      const get = (path: string, address: string) =>
        timedRequest(`${site.url}${path}`, { headers: { 'x-forwarded-for': address } });
      const ghadis = jsonOf<{ data: Array<{ NameEn: string }> }>(
        await get('/api/ghadis', '10.77.255.1'),
        'GET /api/ghadis',
      ).data;
      const variants = spreadVariants(ghadis.map((ghadi) => ghadi.NameEn));
      const head = jsonOf<{ seq: number }>(await get('/api/declarations/head', '10.77.255.1'), 'head');
      // Warm-up: every canonical answer once, so that the baseline holds what a normal day keeps.
      const etags = new Map<string, string>();
      for (const { name } of variants) {
        if (etags.has(name)) continue;
        const answer = await get(`/api/results/${encodeURIComponent(name)}`, '10.77.255.1');
        etags.set(name, String(answer.headers.etag));
        await get(`/satta-results/${encodeURIComponent(name)}`, '10.77.255.1');
      }
      for (const path of ['/', '/api/home', '/api/declarations', '/api/declarations?after=100'])
        await get(path, '10.77.255.1');
      const before = await settledResidentMb(site.pid, hooked);

      const address = (index: number) => {
        const n = (index % ADDRESSES) + 1;
        return `10.77.${n >> 8}.${n & 255}`;
      };
      // Not multiples of the default limit (100): windows the server must not keep.
      const afters = Array.from({ length: AFTER_VALUES * 2 }, (_, index) => index + 1)
        .filter((after) => after % 100 !== 0)
        .slice(0, AFTER_VALUES);
      const tasks: Array<() => Promise<Sent>> = [];
      for (let index = 0; index < VARIANTS; index++) {
        const { variant, name } = variants[index] ?? { variant: '', name: '' };
        const after = afters[index] ?? 1;
        const encoded = encodeURIComponent(variant);
        tasks.push(async () => {
          const answer = await get(`/api/results/${encoded}`, address(3 * index));
          return { kind: 'api', status: answer.status, right: answer.headers.etag === etags.get(name) };
        });
        tasks.push(async () => {
          const answer = await get(`/satta-results/${encoded}`, address(3 * index + 1));
          const location = answer.headers.location;
          return {
            kind: 'page',
            status: answer.status,
            right: location === `/satta-results/${encodeURIComponent(name)}`,
          };
        });
        tasks.push(async () => {
          const answer = await get(`/api/declarations?after=${after}`, address(3 * index + 2));
          const first =
            answer.status === 200 ? jsonOf<{ data: Array<{ seq: number }> }>(answer, 'log') : null;
          const expected = after < head.seq ? after + 1 : undefined;
          return { kind: 'log', status: answer.status, right: first?.data[0]?.seq === expected };
        });
      }
      const home = sampleLatency(`${site.url}/api/home`, { 'x-forwarded-for': '10.78.0.1' });
      const started = Date.now();
      const { results: sent, skipped } = await runPool(tasks, CONCURRENCY, started + FLOOD_LIMIT_MS);
      const floodSeconds = (Date.now() - started) / 1000;
      const homeFigures = await home.stop();
      const after = await settledResidentMb(site.pid, hooked, 5);
      const growth = after.mb - before.mb;
      const allRight = (kind: Kind) => count(sent, kind, (one) => one.right) === VARIANTS;
      const ok =
        skipped === 0 &&
        allRight('api') &&
        allRight('page') &&
        allRight('log') &&
        growth <= MAX_GROWTH_MB &&
        homeFigures.failures === 0 &&
        homeFigures.p99 < HOME_P99_MS;
      const readings = (values: number[]) => values.map((mb) => mb.toFixed(1)).join('/');
      return {
        ok,
        detail:
          `${sent.length} requests in ${floodSeconds.toFixed(1)} s from ${ADDRESSES} addresses (${CONCURRENCY} at once${skipped ? `, ${skipped} NOT SENT in time` : ''}); ` +
          `API ${statusesOf(sent, 'api')}, canonical ETag ${count(sent, 'api', (one) => one.right)}/${VARIANTS}; ` +
          `pages ${statusesOf(sent, 'page')}, to the lower-case address ${count(sent, 'page', (one) => one.right)}/${VARIANTS}; ` +
          `log windows ${statusesOf(sent, 'log')}, the window asked ${count(sent, 'log', (one) => one.right)}/${AFTER_VALUES} (log head ${head.seq}); ` +
          `RSS ${before.mb.toFixed(1)} → ${after.mb.toFixed(1)} MB (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB; readings ${readings(before.readings)} → ${readings(after.readings)}${hooked ? ', each after a forced GC' : ''}); ` +
          `/api/home meanwhile: ${describeLatency(homeFigures)}`,
      };
    },
  );
}
