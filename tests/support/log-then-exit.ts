/**
 * A program for exit-after-logs.test.ts: logs two lines with pino's default destination while libuv's
 * thread pool (one thread: UV_THREADPOOL_SIZE=1) is held by a read of stdin, so the first line's
 * asynchronous write waits behind it; then exits with code 3, the way its argument says: `plain`
 * (process.exit) or `after-logs`. The test decides when the pool is free again: it closes stdin.
 */
import fs from 'node:fs';
import pino from 'pino';
import { exitAfterLogs } from '../../src/server/lib/exit-after-logs.js';

const log = pino();
// Blocks the pool's one thread until the test closes stdin (fd 0 is a blocking pipe: nothing here
// touches process.stdin, which would make it non-blocking).
fs.read(0, Buffer.alloc(1), 0, 1, null, () => {});
log.info('first');
log.info('second');
if (process.argv[2] === 'plain') process.exit(3);
exitAfterLogs(log, 3);
// Synchronous on a pipe: the test releases the pool once it reads this.
process.stderr.write('exiting\n');
