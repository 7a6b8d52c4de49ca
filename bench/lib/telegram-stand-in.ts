/**
 * A local stand-in of the Telegram Bot API (the part a channel poster uses): POST
 * /bot{token}/sendMessage and /bot{token}/editMessageText with a JSON body, answered as Telegram
 * answers ({ ok, result } or { ok: false, error_code, description, parameters }). It keeps every
 * call, can answer the next calls 429 with a retry_after, and lets a caller wait for a count of calls
 * rather than sleep.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TelegramCall {
  method: 'sendMessage' | 'editMessageText' | string;
  token: string;
  body: { chat_id?: string | number; text?: string; message_id?: number; [key: string]: unknown };
  /** When the stand-in received it (ms, performance.now()). */
  at: number;
  /** What it answered. */
  status: number;
}

export interface TelegramStandIn {
  /** e.g. http://127.0.0.1:4312 (TELEGRAM_API_URL). */
  url: string;
  calls: TelegramCall[];
  /** The text of each message as it stands now (sends, then edits), by message_id. */
  messages: Map<number, string>;
  /** The next `count` calls answer 429 with `retry_after` seconds. */
  refuseNext(count: number, retryAfterSeconds: number): void;
  /** Resolves once `count` calls have been answered 200 (or rejects after `timeoutMs`). */
  waitForAnswered(count: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTelegramStandIn(): Promise<TelegramStandIn> {
  const calls: TelegramCall[] = [];
  const messages = new Map<number, string>();
  let refusals = 0;
  let retryAfter = 1;
  let nextId = 100;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const answered = () => calls.filter((call) => call.status === 200).length;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.url ?? '');
      let body: TelegramCall['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        // Answered 400 below.
      }
      const reply = (status: number, json: unknown) => {
        calls.push({
          method: match?.[2] ?? '?',
          token: match?.[1] ?? '',
          body,
          at: performance.now(),
          status,
        });
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
        for (const waiter of waiters.splice(0)) {
          if (answered() >= waiter.count) waiter.resolve();
          else waiters.push(waiter);
        }
      };
      if (request.method !== 'POST' || !match)
        return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
      if (refusals > 0) {
        refusals -= 1;
        return reply(429, {
          ok: false,
          error_code: 429,
          description: `Too Many Requests: retry after ${retryAfter}`,
          parameters: { retry_after: retryAfter },
        });
      }
      if (typeof body.text !== 'string' || body.chat_id === undefined)
        return reply(400, {
          ok: false,
          error_code: 400,
          description: 'Bad Request: text and chat_id are required',
        });
      if (match[2] === 'sendMessage') {
        const id = nextId++;
        messages.set(id, body.text);
        return reply(200, {
          ok: true,
          result: { message_id: id, chat: { id: body.chat_id }, text: body.text },
        });
      }
      if (match[2] === 'editMessageText') {
        const id = Number(body.message_id);
        if (!messages.has(id))
          return reply(400, {
            ok: false,
            error_code: 400,
            description: 'Bad Request: message to edit not found',
          });
        messages.set(id, body.text);
        return reply(200, {
          ok: true,
          result: { message_id: id, chat: { id: body.chat_id }, text: body.text },
        });
      }
      return reply(404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    messages,
    refuseNext(count, seconds) {
      refusals = count;
      retryAfter = seconds;
    },
    waitForAnswered(count, timeoutMs) {
      if (answered() >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(new Error(`${answered()} Telegram calls answered, not ${count}, within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
