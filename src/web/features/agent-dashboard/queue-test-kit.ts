/** Test-only: a fake network and the small helpers the submission queue's unit tests share. */
import { expect, vi } from 'vitest';
import type { PostSubmission, SubmissionBody } from './submission-network.js';
import type { QueueSnapshot, SubmissionQueue } from './submission-queue.js';

export interface Call {
  body: SubmissionBody;
  key: string;
  signal: AbortSignal;
}
type Answer = Response | Error | Promise<Response>;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** The server's answer to a written submission, declared at `at`. */
export const savedAnswer = ({ ghadiId, result, dateTime }: SubmissionBody, at = '2026-11-26T10:00:01.000Z') =>
  json(200, {
    success: true,
    message: 'Result updated',
    data: { GID: ghadiId, Result: result, Date: dateTime, DeclaredAt: at },
  });
export const offline = () => new TypeError('Failed to fetch');

/** A fake network: each call is recorded and answered by the handler the test sets. */
export function fakeNetwork() {
  const calls: Call[] = [];
  let handler: (call: Call) => Answer = (call) => savedAnswer(call.body);
  const post: PostSubmission = async (body, key, signal) => {
    const call = { body, key, signal };
    calls.push(call);
    const answer = handler(call);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return {
    post,
    calls,
    answer(next: (call: Call) => Answer) {
      handler = next;
    },
  };
}

export const TODAY = '2026-11-26';
export const YESTERDAY = '2026-11-25';
export const entry = (ghadiId: number, result: string, date = TODAY) => ({
  ghadiId,
  ghadiName: `Ghadi ${ghadiId}`,
  date,
  result,
});

export const listed = (snapshot: QueueSnapshot) =>
  snapshot.submissions.map(
    (submission) => `${submission.ghadiId} ${submission.date} ${submission.result} ${submission.state}`,
  );

/** Lets the queue finish what a timer or a wake-up started (IndexedDB's callbacks, the fake network). */
export async function settle(queue: SubmissionQueue) {
  await vi.waitFor(async () => {
    const before = queue.getSnapshot();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await queue.idle();
    expect(queue.getSnapshot()).toBe(before);
  });
}
