/**
 * One HTTP request timed from its start to its body's last byte, over a kept-alive connection (so
 * the time is the server's answer, not a TCP handshake), as a browser that asks for compression.
 */
import http from 'node:http';
import zlib from 'node:zlib';

export interface TimedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Start of the request to the last byte of the answer. */
  ms: number;
  /** Bytes on the wire (compressed when the server compressed). */
  wireBytes: number;
  /** The decoded body. */
  body: Buffer;
}

export interface TimedOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is, with its content type (e.g. a CSV file). */
  raw?: { type: string; data: Buffer };
  agent?: http.Agent;
  /** Count the bytes but keep no body (a 25 MB list). */
  discardBody?: boolean;
}

const TIMEOUT_MS = 60_000;

export const keepAliveAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  if (encoding === 'deflate') return zlib.inflateSync(body);
  return body;
}

export function timedRequest(url: string, options: TimedOptions = {}): Promise<TimedAnswer> {
  const payload =
    options.raw?.data ?? (options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json)));
  const contentType = options.raw?.type ?? 'application/json';
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.request(
      url,
      {
        method: options.method ?? 'GET',
        agent: options.agent ?? keepAliveAgent,
        headers: {
          'accept-encoding': 'gzip, deflate, br',
          ...(payload ? { 'content-type': contentType, 'content-length': String(payload.length) } : {}),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let wireBytes = 0;
        response.on('data', (chunk: Buffer) => {
          wireBytes += chunk.length;
          if (!options.discardBody) chunks.push(chunk);
        });
        response.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          try {
            const raw = Buffer.concat(chunks);
            const body = options.discardBody ? raw : decode(raw, response.headers['content-encoding']);
            resolve({ status: response.statusCode ?? 0, headers: response.headers, ms, wireBytes, body });
          } catch (error) {
            reject(error);
          }
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    // A server that stalls fails the check that waits on it rather than hanging the run.
    request.setTimeout(TIMEOUT_MS, () =>
      request.destroy(new Error(`no answer from ${url} in ${TIMEOUT_MS} ms`)),
    );
    request.end(payload);
  });
}

/** The answer's body as JSON, or an error naming the request and what came back. */
export function jsonOf<T>(answer: TimedAnswer, what: string): T {
  try {
    return JSON.parse(answer.body.toString('utf8')) as T;
  } catch {
    throw new Error(
      `${what} answered ${answer.status} with no JSON: ${answer.body.toString('utf8').slice(0, 200)}`,
    );
  }
}
