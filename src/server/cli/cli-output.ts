import fs from 'node:fs';
import type { DatabaseTarget } from '../db/database-target.js';

/** What the database commands (db-tools.ts, rotate-secret.ts) share: how they name things and fail. */

/** Where the database is, without a password. */
export function whereIs(target: DatabaseTarget): string {
  if (target.kind === 'sqlite') return `SQLite ${target.file}`;
  const url = new URL(target.url);
  return `PostgreSQL ${url.host}${url.pathname}`;
}

export function requireFile(file: string, what: string): void {
  if (!fs.existsSync(file)) throw new Error(`${what} ${file} does not exist`);
}

/** A multi-line message (the configuration's) on one line: "a:\n  b\n  c" reads "a: b; c". */
export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/:\s*\n\s*/g, ': ').replace(/\s*\n\s*/g, '; ');
}
