/**
 * The bench's baseline: a bare node:http server that sends recorded responses (status, headers and
 * body bytes exactly as the app sent them) for exact method + URL matches, and does nothing else.
 * Usage: node bench/bare-server.mjs <recorded.json> <port>
 */
import http from 'node:http';
import { loadRecorded, replay } from './recorded-answers.mjs';

const [recordedFile, port] = process.argv.slice(2);
const recorded = loadRecorded(recordedFile);

const server = http.createServer((request, response) => {
  if (!replay(recorded, request, response)) response.writeHead(404).end();
});
server.keepAliveTimeout = 72_000;
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
