/**
 * The hardening group's idle-stream finding (hardening-checks.ts): 10 000 GET /api/events streams
 * whose clients never read (socket.pause()) must not make the server hold every event for each of
 * them. On a fresh server of its own (TRUST_PROXY unset: the streams come from 500 local addresses
 * 127.0.x.y, 20 each, the per-address cap), an admin then declares results in a loop (each event goes
 * to every stream) and edits a 60 KB content block (events that fill a socket's buffers fast); the
 * server should drop a stream once 32 KB is unsent. Passes when all 10 000 open and the process stays
 * under 1 GB resident (sampled every 250 ms, and its VmHWM) while the events are published.
 *
 * HARDENING_STREAMS (10 000) and HARDENING_CONTENT_BYTES (60 000) change the load.
 *
 * Needs 10 000+ open files in this process and the server (it inherits them): `ulimit -n 65536`
 * before `npm run acceptance` where the default is lower.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { signIn } from '../lib/client.js';
import { SEED_ADMIN } from '../lib/seed.js';
import { freePort, startServer } from '../lib/server-process.js';
import { ascending, percentile } from '../lib/stats.js';
import { jsonOf, timedRequest } from '../lib/timed-request.js';
import { check } from './check.js';
import { openFileLimit, openStream, peakResidentMb, residentMb } from './hardening-probes.js';
import type { CheckResult } from './types.js';

const STREAMS = Number(process.env.HARDENING_STREAMS ?? 10_000);
const PER_ADDRESS = 20;
const OPEN_AT_ONCE = 250;
const OPEN_LIMIT_MS = 120_000;
const PUBLISH_MS = 30_000;
const MAX_RESULTS = 3000;
const CONTENT_EDITS = 20;
const CONTENT_BYTES = Number(process.env.HARDENING_CONTENT_BYTES ?? 60_000);
const RSS_LIMIT_MB = 1024;
const METRICS_TOKEN = 'hardening-metrics-token';

function localAddressOf(index: number): string {
  const group = Math.floor(index / PER_ADDRESS) + 1;
  return `127.0.${Math.floor(group / 250)}.${(group % 250) + 1}`;
}

export async function idleStreamsCheck(env: Record<string, string>, dir: string): Promise<CheckResult> {
  return check(
    `${STREAMS} live streams that never read: the server stays under ${RSS_LIMIT_MB} MB RSS while events are published`,
    async () => {
      const needed = STREAMS + 1000;
      const ownLimit = openFileLimit('self');
      if (ownLimit < needed) {
        return {
          ok: false,
          detail: `this process may open ${ownLimit} files, ${STREAMS} streams need about ${needed}: run \`ulimit -n 65536\` before npm run acceptance`,
        };
      }
      const folder = path.join(dir, 'streams');
      fs.mkdirSync(folder, { recursive: true });
      const server = await startServer({
        port: await freePort(),
        env: {
          ...env,
          DATABASE_URL: `sqlite:${path.join(folder, 'site.db')}`,
          TRUST_PROXY: '',
          METRICS_TOKEN,
        },
      });
      const streams: Array<{ request: http.ClientRequest; response: http.IncomingMessage }> = [];
      let peakSampled = 0;
      const sampler = setInterval(() => {
        try {
          peakSampled = Math.max(peakSampled, residentMb(server.pid));
        } catch {
          // The process has gone: its exit is reported below.
        }
      }, 250);
      const openStreams = async () => {
        const answer = await timedRequest(`${server.url}/metrics`, {
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        });
        return /^live_streams_open(?:\{[^}]*\})? (\d+)/m.exec(answer.body.toString())?.[1] ?? '?';
      };
      try {
        const serverLimit = openFileLimit(server.pid);
        const token = await signIn(server.url, SEED_ADMIN, '127.0.0.1');
        const site = jsonOf<{ today: string }>(await timedRequest(`${server.url}/api/site`), 'site');
        const gid = jsonOf<{ data: Array<{ GID: number }> }>(
          await timedRequest(`${server.url}/api/ghadis`),
          'ghadis',
        ).data[0]?.GID;
        if (gid === undefined) throw new Error('the fresh site has no ghadi');
        const startMb = residentMb(server.pid);

        const statuses = new Map<string, number>();
        const openedAt = Date.now();
        for (let start = 0; start < STREAMS && Date.now() - openedAt < OPEN_LIMIT_MS; start += OPEN_AT_ONCE) {
          const batch = Array.from({ length: Math.min(OPEN_AT_ONCE, STREAMS - start) }, (_, offset) =>
            openStream(`${server.url}/api/events`, { localAddress: localAddressOf(start + offset) }).then(
              (stream) => {
                // Never read again: the kernel's buffers fill, then the server's.
                stream.response.pause();
                stream.request.socket?.pause();
                streams.push(stream);
                return String(stream.status);
              },
              (error: NodeJS.ErrnoException) => `error ${error.code ?? error.message}`,
            ),
          );
          for (const status of await Promise.all(batch))
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
        const openSeconds = (Date.now() - openedAt) / 1000;
        const opened = statuses.get('200') ?? 0;
        const afterOpenMb = residentMb(server.pid);
        const openAfterOpening = await openStreams();

        const declare = (result: string) =>
          timedRequest(`${server.url}/api/agent/my-ghadi/update-result`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}` },
            json: { ghadiId: gid, result, dateTime: site.today },
          });
        const publishStarted = Date.now();
        let declared = 0;
        let refused = 0;
        const declareMs: number[] = [];
        while (declared + refused < MAX_RESULTS && Date.now() - publishStarted < PUBLISH_MS) {
          const answer = await declare(String((declared + refused) % 100).padStart(2, '0'));
          declareMs.push(answer.ms);
          if (answer.status === 200) declared += 1;
          else refused += 1;
        }
        const declareSorted = ascending(declareMs);
        const publishSeconds = (Date.now() - publishStarted) / 1000;
        const openAfterResults = await openStreams();
        const afterResultsMb = residentMb(server.pid);

        const block = {
          Title: 'Hardening',
          Slug: 'hardening-check',
          isActive: true,
        };
        const made = await timedRequest(`${server.url}/api/contentblocks`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          json: { ...block, Content: `<p>${'a'.repeat(CONTENT_BYTES)}</p>` },
        });
        const blockId =
          made.status === 201 ? jsonOf<{ data: { id: string } }>(made, 'block').data.id : undefined;
        let edits = 0;
        for (let edit = 0; blockId && edit < CONTENT_EDITS; edit++) {
          const answer = await timedRequest(`${server.url}/api/contentblocks/${blockId}`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${token}` },
            json: {
              ...block,
              Content: `<p>${String.fromCharCode(98 + (edit % 20)).repeat(CONTENT_BYTES)}</p>`,
            },
          });
          if (answer.status === 200) edits += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const openAtEnd = await openStreams();
        const endMb = residentMb(server.pid);
        const peak = Math.max(peakSampled, peakResidentMb(server.pid));
        const mb = (value: number) => `${value.toFixed(0)} MB`;
        return {
          ok: opened === STREAMS && peak < RSS_LIMIT_MB && declared > 0,
          detail:
            `open-file limits: this process ${ownLimit}, the server ${serverLimit}; ` +
            `${opened}/${STREAMS} streams opened in ${openSeconds.toFixed(1)} s (${[...statuses].map(([status, times]) => `${times}×${status}`).join(' ')}); ` +
            `${declared} results declared one after another in ${publishSeconds.toFixed(1)} s${refused ? ` (${refused} refused)` : ''} ` +
            `(each answered in p50 ${percentile(declareSorted, 0.5).toFixed(0)} ms, max ${(declareSorted.at(-1) ?? 0).toFixed(0)} ms), then ${edits}/${CONTENT_EDITS} edits of a ${CONTENT_BYTES / 1000} KB content block${made.status === 201 ? '' : ` (creating it answered ${made.status})`}; ` +
            `streams open on the server: ${openAfterOpening} after opening, ${openAfterResults} after the results, ${openAtEnd} at the end; ` +
            `RSS ${mb(startMb)} at start, ${mb(afterOpenMb)} with the streams open, ${mb(afterResultsMb)} after the results, ${mb(endMb)} at the end; peak ${mb(peak)} (limit ${RSS_LIMIT_MB} MB)`,
        };
      } finally {
        clearInterval(sampler);
        for (const stream of streams) stream.request.destroy();
        await server.stop();
      }
    },
  );
}
