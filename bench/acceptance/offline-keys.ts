/**
 * The offline group's checks over HTTP (issue 35's second "Done when", decision 0010), on two server
 * processes (A and B) sharing one database, run once on PostgreSQL and once on SQLite (offline-checks.ts
 * starts them). An agent submits; what was written is counted in the declaration log and the result's
 * history (admin API), and in the result events a live stream on A receives:
 * - the same Idempotency-Key and body again, on A and B, and after a correction → the first status
 *   and body, byte for byte, and nothing written;
 * - the same key with another body → 422 `{ success: false, message }`, nothing written;
 * - 20 requests with one key at once, spread over A and B → one write, and every answer the stored
 *   200 answer (or a 503 with Retry-After, the wait docs/api.md allows);
 * - 10 identical requests without a key at once over A and B → one log entry (a correction, and a
 *   first declaration).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LiveEvent } from '../../src/shared/live-events.js';
import { type EventStream, openEvents } from '../../tests/support/http.js';
import { send } from '../lib/client.js';
import type { TimedAnswer } from '../lib/timed-request.js';
import { check } from './check.js';
import { type OfflineGhadi, type OfflineSite, recorded } from './offline-site.js';
import type { CheckResult } from './types.js';

const SUBMIT = '/api/agent/my-ghadi/update-result';
/** How long to wait after a write for any further log entry or event (B's reach A within 1 s). */
const SETTLE_MS = 1500;

export interface Processes {
  site: OfflineSite;
  /** The second process's address (the site's url is A's). */
  b: string;
}

interface Counts {
  log: number;
  history: number;
  events: number;
}

/** Submits as the site's agent, on `base`, with a key or none. */
function submit(site: OfflineSite, base: string, ghadi: OfflineGhadi, result: string, key?: string) {
  return send(base, SUBMIT, {
    method: 'POST',
    address: site.nextAddress(),
    token: site.agent.token,
    headers: key === undefined ? {} : { 'idempotency-key': key },
    json: { ghadiId: ghadi.GID, result, dateTime: site.today },
  });
}

const text = (answer: TimedAnswer) => answer.body.toString('utf8');
const tally = (statuses: number[]) => {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count} × ${status}`).join(', ');
};

/** The log entries, history rows and result events (on A's stream) of a ghadi's today, so far. */
async function counts(pair: Processes, stream: EventStream, ghadi: OfflineGhadi): Promise<Counts> {
  const found = await recorded(pair.site, ghadi, pair.site.today);
  const events = stream.events.filter((event) => {
    const data = event.data as LiveEvent;
    return data.kind === 'result' && data.gid === ghadi.GID && data.date === pair.site.today;
  }).length;
  return { log: found.log.length, history: found.history.length, events };
}

const grew = (before: Counts, after: Counts) =>
  `log +${after.log - before.log}, history +${after.history - before.history}, events +${after.events - before.events}`;
const grewBy = (before: Counts, after: Counts, by: number) =>
  after.log - before.log === by &&
  after.history - before.history === by &&
  after.events - before.events === by;

/** Waits for what a write sends, then for anything more that would come. */
async function settled(pair: Processes, stream: EventStream, ghadi: OfflineGhadi) {
  await sleep(SETTLE_MS);
  return counts(pair, stream, ghadi);
}

async function replayCheck(pair: Processes, stream: EventStream): Promise<CheckResult> {
  return check(
    'the same key and body again, on A and on B, before and after a correction: the same status and body, nothing written',
    async () => {
      const { site, b } = pair;
      const ghadi = site.ghadis[0] as OfflineGhadi;
      const key = randomUUID();
      const before = await counts(pair, stream, ghadi);
      const first = await submit(site, site.url, ghadi, '11', key);
      const written = await settled(pair, stream, ghadi);
      // Again on A, on B, and on B with the value spaced otherwise (the same body once trimmed).
      const again = [
        await submit(site, site.url, ghadi, '11', key),
        await submit(site, b, ghadi, '11', key),
        await submit(site, b, ghadi, ' 11 ', key),
      ];
      const after = await settled(pair, stream, ghadi);
      // Corrected since (another submission, no key): the key still answers as the first time and
      // writes nothing, where a plain resend of 11 would correct the value back.
      const correction = await submit(site, b, ghadi, '15');
      const corrected = await settled(pair, stream, ghadi);
      const late = await submit(site, site.url, ghadi, '11', key);
      const end = await settled(pair, stream, ghadi);
      const { todayResult } = await recorded(site, ghadi, site.today);
      const replays = [...again, late];
      const same = replays.filter((one) => one.status === first.status && text(one) === text(first)).length;
      return {
        ok:
          first.status === 200 &&
          grewBy(before, written, 1) &&
          same === replays.length &&
          grewBy(written, after, 0) &&
          correction.status === 200 &&
          grewBy(after, corrected, 1) &&
          grewBy(corrected, end, 0) &&
          todayResult === '15',
        detail:
          `first 11 on A ${first.status} (${grew(before, written)}); again on A, on B, on B as " 11 ": ` +
          `${again.map((one) => one.status).join(', ')} (${grew(written, after)}); corrected to 15 on B without a key ` +
          `${correction.status} (${grew(after, corrected)}); the key again on A ${late.status} (${grew(corrected, end)}), ` +
          `the value "${todayResult}" (15 expected); ${same}/${replays.length} answers byte for byte the first (${first.body.length} bytes)`,
      };
    },
  );
}

async function otherBodyCheck(pair: Processes, stream: EventStream): Promise<CheckResult> {
  return check(
    'the same key with another body: 422 { success: false, message }, nothing written',
    async () => {
      const { site, b } = pair;
      const ghadi = site.ghadis[1] as OfflineGhadi;
      const key = randomUUID();
      const first = await submit(site, site.url, ghadi, '12', key);
      const written = await settled(pair, stream, ghadi);
      const other = [
        await submit(site, site.url, ghadi, '13', key),
        await submit(site, b, ghadi, '14', key),
        await submit(site, b, site.ghadis[0] as OfflineGhadi, '12', key),
      ];
      const after = await settled(pair, stream, ghadi);
      const found = await recorded(site, ghadi, site.today);
      const right = other.filter((one) => {
        const body = JSON.parse(text(one)) as { success?: unknown; message?: unknown };
        return (
          one.status === 422 &&
          body.success === false &&
          typeof body.message === 'string' &&
          body.message.startsWith('Idempotency-Key:') &&
          Object.keys(body).length === 2
        );
      }).length;
      const message = (JSON.parse(text(other[0] as TimedAnswer)) as { message?: string }).message ?? '';
      return {
        ok:
          first.status === 200 &&
          right === other.length &&
          grewBy(written, after, 0) &&
          found.log.at(-1)?.Result === '12' &&
          found.todayResult === '12',
        detail:
          `first ${first.status}; the key again with 13 on A, 14 on B, another ghadi on B: ${other.map((one) => one.status).join(', ')}, ` +
          `${right}/${other.length} { success: false, message: "${message.slice(0, 60)}…" }; after them: ${grew(written, after)}, ` +
          `the value still "${found.todayResult}"`,
      };
    },
  );
}

async function oneKeyAtOnceCheck(pair: Processes, stream: EventStream): Promise<CheckResult> {
  return check(
    '20 requests with one key at once over A and B: one write; each answer the stored one',
    async () => {
      const { site, b } = pair;
      const ghadi = site.ghadis[2] as OfflineGhadi;
      // A value first (no key), so that the keyed one is a correction: each writer would log one.
      const declared = await submit(site, site.url, ghadi, '20');
      const before = await settled(pair, stream, ghadi);
      const key = randomUUID();
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) => submit(site, index % 2 ? b : site.url, ghadi, '21', key)),
      );
      const ms = Date.now() - started;
      const after = await settled(pair, stream, ghadi);
      const stored = await submit(site, site.url, ghadi, '21', key);
      const found = await recorded(site, ghadi, site.today);
      const storedAnswer = stored.status === 200 ? text(stored) : null;
      const asStored = answers.filter((one) => one.status === 200 && text(one) === storedAnswer).length;
      const waited = answers.filter((one) => one.status === 503 && one.headers['retry-after']).length;
      const entry = found.log.at(-1);
      return {
        ok:
          declared.status === 200 &&
          grewBy(before, after, 1) &&
          asStored >= 1 &&
          asStored + waited === answers.length &&
          entry?.Previous === '20' &&
          entry.Result === '21',
        detail:
          `${tally(answers.map((one) => one.status))} in ${ms} ms; ${asStored} byte for byte the answer the key gives after, ` +
          `${waited} × 503 with Retry-After; ${grew(before, after)}; the new entry ${entry?.Previous}→${entry?.Result}`,
      };
    },
  );
}

async function noKeyAtOnceCheck(pair: Processes, stream: EventStream): Promise<CheckResult> {
  return check('10 identical requests without a key at once over A and B: one log entry', async () => {
    const { site, b } = pair;
    const [corrected, fresh] = [site.ghadis[3], site.ghadis[4]] as [OfflineGhadi, OfflineGhadi];
    const declared = await submit(site, site.url, corrected, '30');
    const before = [await settled(pair, stream, corrected), await counts(pair, stream, fresh)];
    const at = (ghadi: OfflineGhadi, value: string) =>
      Promise.all(
        Array.from({ length: 10 }, (_, index) => submit(site, index % 2 ? b : site.url, ghadi, value)),
      );
    // A correction (30 → 31), then a first declaration.
    const answers = [await at(corrected, '31'), await at(fresh, '40')];
    await sleep(SETTLE_MS);
    const after = [await counts(pair, stream, corrected), await counts(pair, stream, fresh)];
    const [beforeCorrected, beforeFresh] = before as [Counts, Counts];
    const [afterCorrected, afterFresh] = after as [Counts, Counts];
    const all200 = answers.every((batch) => batch.every((one) => one.status === 200));
    return {
      ok:
        declared.status === 200 &&
        all200 &&
        grewBy(beforeCorrected, afterCorrected, 1) &&
        grewBy(beforeFresh, afterFresh, 1),
      detail:
        `a correction 30→31: ${tally(answers[0]?.map((one) => one.status) ?? [])}, ${grew(beforeCorrected, afterCorrected)}; ` +
        `a first declaration 40: ${tally(answers[1]?.map((one) => one.status) ?? [])}, ${grew(beforeFresh, afterFresh)}`,
    };
  });
}

/** The four checks on one pair of processes; the agent's site needs five ghadis. */
export async function keyChecks(pair: Processes): Promise<CheckResult[]> {
  const stream = await openEvents(pair.site.url);
  try {
    return [
      await replayCheck(pair, stream),
      await otherBodyCheck(pair, stream),
      await oneKeyAtOnceCheck(pair, stream),
      await noKeyAtOnceCheck(pair, stream),
    ];
  } finally {
    stream.close();
  }
}
