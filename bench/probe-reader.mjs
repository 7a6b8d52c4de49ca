/**
 * One reader in a process of its own: GET <url> over and over on one kept-alive connection, each
 * answer read to its end, until SIGTERM; then prints each read's milliseconds as JSON on stdout.
 * Apart from the load's clients, so that their work never delays its own timing.
 * Usage: node bench/probe-reader.mjs <url> [x-forwarded-for]
 */
import http from 'node:http';

const [url, address] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const times = [];
let running = true;

function read() {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    http
      .get(
        url,
        {
          agent,
          headers: {
            'accept-encoding': 'gzip, deflate, br',
            ...(address ? { 'x-forwarded-for': address } : {}),
          },
        },
        (response) => {
          response.on('data', () => {});
          response.on('end', () => {
            times.push(Number(process.hrtime.bigint() - started) / 1e6);
            resolve();
          });
        },
      )
      .on('error', reject);
  });
}

process.on('SIGTERM', () => {
  running = false;
});
process.stdout.write('ready\n');
while (running) await read();
process.stdout.write(`${JSON.stringify(times)}\n`);
agent.destroy();
