/**
 * Recorded responses (status, headers and body bytes exactly as the app sent them), replayed for
 * exact method + URL matches. Shared by the bench's two baselines: the bare server
 * (bare-server.mjs) and the same logic inside the app's own process (bare-in-app.mjs).
 */
import fs from 'node:fs';

/** @returns {Map<string, { status: number, headers: Record<string, string | string[]>, body: Buffer }>} */
export function loadRecorded(file) {
  const recorded = new Map();
  for (const answer of JSON.parse(fs.readFileSync(file, 'utf8'))) {
    recorded.set(`${answer.method} ${answer.path}`, {
      status: answer.status,
      headers: answer.headers,
      body: Buffer.from(answer.body, 'base64'),
    });
  }
  return recorded;
}

/**
 * Sends the recorded answer to a request, if there is one; a request body (POST) is read to its end
 * first, as any server must. Returns whether it answered.
 */
export function replay(recorded, request, response) {
  const answer = recorded.get(`${request.method} ${request.url}`);
  if (!answer) return false;
  const send = () => {
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  };
  if (request.method === 'GET' || request.method === 'HEAD') send();
  else request.resume().on('end', send);
  return true;
}
