/**
 * Issue 40's "Done when", from outside, on a server of its own (the matka group's site: an admin and
 * two agents), over HTTP: a ghadi needing two people holds the first entry where no public answer or
 * live event shows it, refuses a different second entry blind, publishes a matching one once (one log
 * entry, the chain whole, one event), never on one person's word, and needs two for a correction; a
 * ghadi of one person works as before. Receipts and punctuality are in two-person-receipts.ts.
 */
import type http from 'node:http';
import { brokenLink } from '../lib/declaration-chain.js';
import { check } from './check.js';
import { openStream } from './hardening-probes.js';
import { assign, type Ghadi, type MatkaSite, startMatkaSite } from './matka-site.js';
import { receiptChecks } from './two-person-receipts.js';
import type { CheckResult, CheckSettings, StandaloneChecks } from './types.js';

/** The result events of a live stream, as they arrive. */
class ResultEvents {
  private text = '';
  readonly seen: Array<{ gid: number; result: string | null }> = [];

  constructor(response: http.IncomingMessage) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.text += chunk;
      const blocks = this.text.split('\n\n');
      this.text = blocks.pop() ?? '';
      for (const block of blocks) {
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('\n');
        if (!data) continue;
        const event = JSON.parse(data) as { kind: string; gid?: number; result?: { Result: string } | null };
        if (event.kind === 'result')
          this.seen.push({ gid: event.gid ?? 0, result: event.result?.Result ?? null });
      }
    });
  }

  of(gid: number): Array<string | null> {
    return this.seen.filter((event) => event.gid === gid).map((event) => event.result);
  }

  async waitFor(gid: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.of(gid).length === 0) {
      if (Date.now() > deadline) throw new Error(`no live event for ghadi ${gid} in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

interface Scene {
  site: MatkaSite;
  events: ResultEvents;
  /** A write after the ones checked: its event arrives after any they caused. */
  settle(): Promise<void>;
}

/** What the public sees of a ghadi: its board value, its results (null: 404) and its log entries. */
async function publicOf(site: MatkaSite, ghadi: Ghadi) {
  const board = (await site.call<Ghadi[]>('GET', '/api/ghadis')).body.data ?? [];
  const results = await site.call<Array<{ Result: string }>>(
    'GET',
    `/api/results/${encodeURIComponent(ghadi.NameEn)}`,
  );
  const log = (await site.log()).filter((entry) => entry.GID === ghadi.GID);
  return {
    today: board.find((row) => row.GID === ghadi.GID)?.TodayResult ?? null,
    results: results.status === 404 ? null : (results.body.data ?? []).map((row) => row.Result),
    log: log.map((entry) => [entry.Result, entry.Previous]),
  };
}

async function twoPersonGhadi(site: MatkaSite, name: string, confirmations: 1 | 2): Promise<Ghadi> {
  const ghadi = await site.createGhadi({
    NameEn: name,
    NameHn: `${name} हिंदी`,
    RTime: '11:55 PM',
    OrderId: 1,
    Confirmations: confirmations,
  });
  await assign(site, 0, [ghadi.GID]);
  await assign(site, 1, [ghadi.GID]);
  return ghadi;
}

async function publishedOnceCheck({ site, events, settle }: Scene): Promise<CheckResult[]> {
  const [a = '', b = ''] = site.agents;
  const ghadi = await twoPersonGhadi(site, 'Two Person One', 2);
  const results: CheckResult[] = [];
  results.push(
    await check(
      'a first entry answers 202 and nothing public shows it (board, results, log, live stream)',
      async () => {
        const held = await site.submit(a, ghadi.GID, '47', site.today);
        await settle();
        const seen = await publicOf(site, ghadi);
        const ok =
          held.status === 202 &&
          held.body.pending === true &&
          seen.today === '' &&
          seen.results === null &&
          seen.log.length === 0 &&
          events.of(ghadi.GID).length === 0;
        return {
          ok,
          detail: `${held.status} ${JSON.stringify(held.body)}; public ${JSON.stringify(seen)}; events ${events.of(ghadi.GID).length}`,
        };
      },
    ),
  );
  results.push(
    await check(
      'another agent’s different value: 409 mismatch, and neither its answer nor its /api/pending shows the first value',
      async () => {
        const other = await site.submit(b, ghadi.GID, '74', site.today);
        const pending = await site.call('GET', '/api/pending', b);
        const adminView = await site.call<Array<{ GID: number; Mismatch: boolean; Entries: unknown[] }>>(
          'GET',
          '/api/pending',
          site.admin,
        );
        const day = adminView.body.data?.find((item) => item.GID === ghadi.GID);
        const leaks =
          JSON.stringify(other.body).includes('47') || JSON.stringify(pending.body).includes('47');
        const ok =
          other.status === 409 &&
          other.body.mismatch === true &&
          !leaks &&
          day?.Mismatch === true &&
          day.Entries.length === 2;
        return {
          ok,
          detail: `${other.status} ${JSON.stringify(other.body)}; B's pending ${JSON.stringify(pending.body)}; admin sees ${day?.Entries.length} entries`,
        };
      },
    ),
  );
  results.push(
    await check(
      'the second agent entering the first value publishes it once: one entry, the chain whole, one event',
      async () => {
        const confirmed = await site.submit(b, ghadi.GID, '47', site.today);
        await settle();
        const seen = await publicOf(site, ghadi);
        const broken = brokenLink(await site.log());
        const ok =
          confirmed.status === 200 &&
          seen.today === '47' &&
          JSON.stringify(seen.log) === JSON.stringify([['47', null]]) &&
          broken === null &&
          JSON.stringify(events.of(ghadi.GID)) === JSON.stringify(['47']);
        return {
          ok,
          detail: `${confirmed.status}; public ${JSON.stringify(seen)}; chain ${broken ?? 'whole'}; events ${JSON.stringify(events.of(ghadi.GID))}`,
        };
      },
    ),
  );
  results.push(
    await check('a correction needs two people as well', async () => {
      const first = await site.submit(a, ghadi.GID, '48', site.today);
      const between = await publicOf(site, ghadi);
      const second = await site.submit(b, ghadi.GID, '48', site.today);
      const after = await publicOf(site, ghadi);
      const ok =
        first.status === 202 &&
        between.today === '47' &&
        second.status === 200 &&
        after.today === '48' &&
        JSON.stringify(after.log) ===
          JSON.stringify([
            ['47', null],
            ['48', '47'],
          ]);
      return {
        ok,
        detail: `${first.status} then ${second.status}; between ${between.today}; log ${JSON.stringify(after.log)}`,
      };
    }),
  );
  return results;
}

async function onePersonChecks({ site, settle, events }: Scene): Promise<CheckResult[]> {
  const [a = ''] = site.agents;
  return [
    await check('the same agent twice never publishes', async () => {
      const ghadi = await twoPersonGhadi(site, 'Two Person Alone', 2);
      const answers = [
        await site.submit(a, ghadi.GID, '12', site.today),
        await site.submit(a, ghadi.GID, '12', site.today),
      ];
      await settle();
      const seen = await publicOf(site, ghadi);
      const ok =
        answers.every((answer) => answer.status === 202) &&
        seen.today === '' &&
        seen.log.length === 0 &&
        events.of(ghadi.GID).length === 0;
      return {
        ok,
        detail: `${answers.map((answer) => answer.status).join(', ')}; public ${JSON.stringify(seen)}`,
      };
    }),
    await check('a ghadi of one confirmation behaves as before', async () => {
      const ghadi = await twoPersonGhadi(site, 'One Person', 1);
      const answer = await site.submit(a, ghadi.GID, '33', site.today);
      const seen = await publicOf(site, ghadi);
      const ok =
        answer.status === 200 && seen.today === '33' && seen.log.length === 1 && ghadi.Confirmations === 1;
      return {
        ok,
        detail: `${answer.status}; Confirmations ${ghadi.Confirmations}; public ${JSON.stringify(seen)}`,
      };
    }),
  ];
}

export const twoPersonChecks: StandaloneChecks = async (settings: CheckSettings) => {
  const site = await startMatkaSite(settings);
  const stream = await openStream(`${site.url}/api/events`);
  try {
    const events = new ResultEvents(stream.response);
    let markers = 0;
    const settle = async () => {
      markers += 1;
      const marker = await site.createGhadi({
        NameEn: `Marker ${markers}`,
        NameHn: 'मार्कर',
        RTime: '1:00 PM',
        OrderId: 50,
      });
      await site.submit(site.admin, marker.GID, '1', site.today);
      await events.waitFor(marker.GID);
    };
    const scene: Scene = { site, events, settle };
    return [
      ...(await publishedOnceCheck(scene)),
      ...(await onePersonChecks(scene)),
      ...(await receiptChecks(site)),
    ];
  } finally {
    stream.request.destroy();
    await site.stop();
  }
};
