import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config.js';
import { openOwnerOnly } from '../../lib/owner-only-files.js';

export const FIRST_ADMIN_PASSWORD_FILE = 'first-admin-password.txt';

type Where = Pick<AppConfig, 'database' | 'firstAdminPasswordFolder'>;

/** Beside the SQLite file; the working folder on PostgreSQL (and for SQLite in memory). */
export function firstAdminPasswordPath(config: Where): string {
  const { database } = config;
  const folder =
    config.firstAdminPasswordFolder ??
    (database.kind === 'sqlite' && database.file !== ':memory:'
      ? path.dirname(path.resolve(database.file))
      : process.cwd());
  return path.join(folder, FIRST_ADMIN_PASSWORD_FILE);
}

/** Where the password may be printed: the server's standard output, unless it is no terminal. */
export interface Terminal {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * Hands the generated password to whoever started the server, never through the log (which may be
 * shipped anywhere): printed when standard output is a terminal, else written to an owner-only file
 * whose path (not the password) is logged. The file goes once the password is changed.
 */
export function announceFirstAdminPassword(options: {
  config: Where;
  log: Pick<FastifyBaseLogger, 'warn'>;
  username: string;
  password: string;
  terminal?: Terminal;
}): void {
  const { config, log, username, password, terminal = process.stdout } = options;
  if (terminal.isTTY) {
    terminal.write(
      `\n  First admin created. Username: ${username}  Password: ${password}\n` +
        '  Keep this password: it is not shown again. You will be asked to change it at the first sign-in.\n' +
        '  Set ADMIN_PASSWORD to choose one instead.\n\n',
    );
    return;
  }
  const file = firstAdminPasswordPath(config);
  const fd = openOwnerOnly(file);
  try {
    fs.writeSync(
      fd,
      `Username: ${username}\nPassword: ${password}\n\n` +
        'The generated password of the first admin. Sign in and change it: this file is then deleted.\n',
    );
  } finally {
    fs.closeSync(fd);
  }
  log.warn(
    { file, username },
    'the first admin was created with a generated password, written to this file (owner-only); sign in and change it',
  );
}

/** Deletes the generated password's file once that password has been replaced. */
export class FirstAdminPassword {
  constructor(
    private readonly config: Where,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'error'>,
  ) {}

  forget(): void {
    const file = firstAdminPasswordPath(this.config);
    try {
      fs.unlinkSync(file);
      this.log.info({ file }, "the first admin's password was changed: its file is deleted");
    } catch (error) {
      // Printed to a terminal, or on another machine's working folder: there is no file here.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.log.error({ err: error, file }, "the first admin's password file could not be deleted");
    }
  }
}
