/**
 * A program for exit-after-logs.test.ts: logs two lines with pino's default destination while libuv's
 * thread pool (one thread: UV_THREADPOOL_SIZE=1) is busy, so the first line's asynchronous write waits,
 * then exits with code 3, the way its argument says: `plain` (process.exit) or `after-logs`.
 */
import { pbkdf2 } from 'node:crypto';
import pino from 'pino';
import { exitAfterLogs } from '../../src/server/lib/exit-after-logs.js';

const log = pino();
pbkdf2('busy', 'pool', 300_000, 32, 'sha256', () => {});
log.info('first');
log.info('second');
if (process.argv[2] === 'plain') process.exit(3);
else exitAfterLogs(log, 3);
