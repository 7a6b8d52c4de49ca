/**
 * Our server's answers to the benched requests, recorded byte for byte (status, headers, the raw
 * body: no decompression) into the file the baselines replay (bench/recorded-answers.mjs).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ACCEPT_ENCODING, localOrigin, log } from './setup.js';

/** A request a row of the hot table loads. */
export interface BenchedRequest {
  method: 'GET' | 'POST';
  path: string;
}

export interface Recorded {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

/** Per-response or per-connection headers are the server's own business. */
const UNRECORDED = ['date', 'connection', 'keep-alive', 'x-request-id'];

/** One request to our server, recorded byte for byte (no decompression). */
export function record(port: number, origin: string, target: BenchedRequest): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: target.method,
        path: target.path,
        headers: {
          'accept-encoding': ACCEPT_ENCODING,
          ...(target.method === 'POST' ? { 'x-session-id': `bench-record-${Date.now()}`, origin } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const headers: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined && !UNRECORDED.includes(name)) headers[name] = value;
          }
          const body = Buffer.concat(chunks).toString('base64');
          resolve({
            method: target.method,
            path: target.path,
            status: response.statusCode ?? 0,
            headers,
            body,
          });
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** Records our answer to each distinct request of the rows into `dir`; returns the file. */
export async function recordAnswers(port: number, targets: BenchedRequest[], dir: string): Promise<string> {
  const recordings = await askEachOnce(port, targets);
  for (const recorded of recordings) {
    const size = Buffer.from(recorded.body, 'base64').length;
    const encoding = recorded.headers['content-encoding'] ?? 'identity';
    log(`recorded ${recorded.method} ${recorded.path}: ${recorded.status}, ${size} bytes (${encoding})`);
    if (recorded.status !== 200)
      throw new Error(`${recorded.method} ${recorded.path} answered ${recorded.status}`);
  }
  return writeRecorded(dir, recordings);
}

/**
 * Asks our server for each target once, one after another as one client (the server builds at most
 * 4 answers at once per address), so that every answer is built before a round loads it: a page
 * built during the load would count its render (in the render process, which the load starves) in
 * the round's CPU. One request per method and path (the two track rows share theirs).
 */
export async function askEachOnce(port: number, targets: BenchedRequest[]): Promise<Recorded[]> {
  const origin = localOrigin(port);
  const distinct = targets.filter(
    (target, index) =>
      targets.findIndex((other) => other.method === target.method && other.path === target.path) === index,
  );
  const recordings: Recorded[] = [];
  for (const target of distinct) recordings.push(await record(port, origin, target));
  return recordings;
}

/** The file the baselines replay (bench/recorded-answers.mjs). */
export function writeRecorded(dir: string, recordings: readonly Recorded[]): string {
  const recordedFile = path.join(dir, 'recorded.json');
  fs.writeFileSync(recordedFile, JSON.stringify(recordings));
  return recordedFile;
}
