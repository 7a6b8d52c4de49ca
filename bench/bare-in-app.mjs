/**
 * The bare server's logic inside the app's own process: preloaded into the built server
 * (node --import ./bench/bare-in-app.mjs dist/server/server.js, BENCH_RECORDED=<recorded.json>), it
 * answers the recorded requests before the app's own request handler sees them. Against the bare
 * server it measures what the process itself costs (its modules, heap and timers); against our
 * server, what our fast path costs over sending the same bytes from the same process.
 */
import http from 'node:http';
import { loadRecorded, replay } from './recorded-answers.mjs';

const recorded = loadRecorded(process.env.BENCH_RECORDED ?? '');
const createServer = http.createServer;
http.createServer = function createServerReplayingFirst(...args) {
  const index = args.findIndex((argument) => typeof argument === 'function');
  const handler = args[index];
  args[index] = (request, response) => {
    if (!replay(recorded, request, response)) handler(request, response);
  };
  return createServer.apply(this, args);
};
