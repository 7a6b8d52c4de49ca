/**
 * Whether an error means the database cannot be used now (lost, stopped, hung, full or read-only),
 * as opposed to a fault of the request or the code: such a request is answered 503 with Retry-After,
 * and may be tried again. Judged by the drivers' codes, never by a message a user could write.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = errorCode(error);
  if (code !== undefined) {
    // PostgreSQL: connection exceptions (08…), shutdown or start-up in progress, a statement past
    // statement_timeout (57014), too many connections or out of resources (53…).
    if (/^08|^57P0[123]$|^57014$|^53/.test(code)) return true;
    if (NETWORK_CODES.has(code)) return true;
    // SQLite: busy past busy_timeout, disk full, read-only, an I/O error, a file it cannot open.
    if (/^SQLITE_(BUSY|FULL|READONLY|IOERR|CANTOPEN|LOCKED)/.test(code)) return true;
  }
  const message = error instanceof Error ? error.message : '';
  return PG_CLIENT_MESSAGES.some((known) => message.startsWith(known));
}

/** The driver's code of an error (PostgreSQL's SQLSTATE, SQLite's result code, a socket's errno). */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** node-postgres' own errors, which carry no code: the pool's and the client's. */
const PG_CLIENT_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];
