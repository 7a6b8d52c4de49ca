import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  announceFirstAdminPassword,
  FIRST_ADMIN_PASSWORD_FILE,
  FirstAdminPassword,
  firstAdminPasswordPath,
} from './first-admin-password.js';

const PASSWORD = 'Generated-Secret-Password-42';

/** A log that keeps what it is given, to show what reached it. */
function recordingLog() {
  const lines: unknown[][] = [];
  const keep = (...args: unknown[]) => {
    lines.push(args);
  };
  return { lines, log: { warn: keep, info: keep, error: keep } };
}

describe('the first admin’s generated password', () => {
  const folders: string[] = [];
  const folder = () => {
    const made = fs.mkdtempSync(path.join(os.tmpdir(), 'first-admin-'));
    folders.push(made);
    return made;
  };
  afterEach(() => {
    for (const made of folders.splice(0)) fs.rmSync(made, { recursive: true, force: true });
  });

  it('goes beside a SQLite file, else to the working folder', () => {
    expect(
      firstAdminPasswordPath({
        database: { kind: 'sqlite', file: '/srv/data/ghadi.db' },
        firstAdminPasswordFolder: undefined,
      }),
    ).toBe(path.join('/srv/data', FIRST_ADMIN_PASSWORD_FILE));
    for (const database of [
      { kind: 'postgres' as const, url: 'postgres://db/site' },
      { kind: 'sqlite' as const, file: ':memory:' },
    ]) {
      expect(firstAdminPasswordPath({ database, firstAdminPasswordFolder: undefined })).toBe(
        path.join(process.cwd(), FIRST_ADMIN_PASSWORD_FILE),
      );
    }
  });

  it('is printed to a terminal, and then no file is written and the log never has it', () => {
    const dir = folder();
    const printed: string[] = [];
    const { lines, log } = recordingLog();
    announceFirstAdminPassword({
      config: {
        database: { kind: 'sqlite', file: path.join(dir, 'site.db') },
        firstAdminPasswordFolder: undefined,
      },
      log,
      username: 'admin',
      password: PASSWORD,
      terminal: { isTTY: true, write: (text) => printed.push(text) },
    });
    expect(printed.join('')).toContain(`Username: admin  Password: ${PASSWORD}`);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
  });

  it('otherwise goes to an owner-only file whose path, never the password, is logged', () => {
    const dir = folder();
    const { lines, log } = recordingLog();
    const printed: string[] = [];
    const config = {
      database: { kind: 'sqlite' as const, file: path.join(dir, 'site.db') },
      firstAdminPasswordFolder: undefined,
    };
    announceFirstAdminPassword({
      config,
      log,
      username: 'admin',
      password: PASSWORD,
      terminal: { isTTY: false, write: (text) => printed.push(text) },
    });
    const file = path.join(dir, FIRST_ADMIN_PASSWORD_FILE);
    expect(printed).toEqual([]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toContain(`Password: ${PASSWORD}\n`);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.[0]).toEqual({ file, username: 'admin' });
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);

    new FirstAdminPassword(config, log).forget();
    expect(fs.existsSync(file)).toBe(false);
    // Forgetting again (another process, or a printed password) finds nothing and says nothing wrong.
    new FirstAdminPassword(config, log).forget();
    expect(lines.filter((line) => String(line[1]).includes('could not'))).toEqual([]);
  });
});
