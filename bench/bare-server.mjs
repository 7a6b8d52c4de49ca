/**
 * The bench's baseline: a bare node:http server that sends recorded responses (status, headers and
 * body bytes exactly as the app sent them) for exact method + URL matches, and does nothing else.
 * Usage: node bench/bare-server.mjs <fixtures.json> <port>
 */
import fs from 'node:fs';
import http from 'node:http';

const [fixturesFile, port] = process.argv.slice(2);
const fixtures = new Map();
for (const fixture of JSON.parse(fs.readFileSync(fixturesFile, 'utf8'))) {
  fixtures.set(`${fixture.method} ${fixture.path}`, {
    status: fixture.status,
    headers: fixture.headers,
    body: Buffer.from(fixture.body, 'base64'),
  });
}

const server = http.createServer((request, response) => {
  const fixture = fixtures.get(`${request.method} ${request.url}`);
  const reply = () => {
    if (!fixture) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(fixture.status, fixture.headers);
    response.end(fixture.body);
  };
  // A request body (POST) is read to its end first, as any server must.
  if (request.method === 'GET' || request.method === 'HEAD') reply();
  else request.resume().on('end', reply);
});
server.keepAliveTimeout = 72_000;
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
