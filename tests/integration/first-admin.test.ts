import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MeAnswer } from '../../src/shared/schemas/account.js';
import type { LoginAnswer } from '../../src/shared/schemas/users.js';
import { call, expectStatus, login, uniqueAddress } from '../support/factories.js';
import { ADMIN_USERNAME, createTestApp, DIALECTS, type TestApp, tempDir } from '../support/test-app.js';

const FILE = 'first-admin-password.txt';

/** The generated password, read from its file as the operator would. */
function passwordIn(file: string): string {
  const match = /^Password: (\S+)$/m.exec(fs.readFileSync(file, 'utf8'));
  if (!match?.[1]) throw new Error(`no password in ${file}`);
  return match[1];
}

describe.each(DIALECTS)('the first admin’s generated password [%s]', (dialect) => {
  const dir = tempDir();

  /**
   * An app on an empty database with no ADMIN_PASSWORD: on SQLite the file goes beside the database;
   * on PostgreSQL in the working folder, which the suite moves to its temporary folder.
   */
  async function start(name: string): Promise<{ t: TestApp; file: string }> {
    const folder = path.join(dir(), name);
    fs.mkdirSync(folder);
    const t = await createTestApp(dialect, {
      env: { ADMIN_PASSWORD: '' },
      sqliteFile: path.join(folder, 'site.db'),
      ...(dialect === 'postgres' ? { config: { firstAdminPasswordFolder: folder } } : {}),
    });
    return { t, file: path.join(folder, FILE) };
  }

  it('is written to an owner-only file, asked to be changed, and the file goes once it is', async () => {
    const { t, file } = await start('changed');
    try {
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const generated = passwordIn(file);
      expect(generated.length).toBeGreaterThanOrEqual(20);
      expect(fs.readFileSync(file, 'utf8')).toContain(`Username: ${ADMIN_USERNAME}`);

      const signedIn = expectStatus<LoginAnswer>(
        await login(t.app, ADMIN_USERNAME, generated, uniqueAddress()),
        200,
      );
      expect(signedIn.user.passwordChangeRequired).toBe(true);
      const token = signedIn.token;

      // Everything outside /api/users/me/... answers 403, saying why.
      for (const url of ['/api/users', '/api/activity', '/api/today', '/api/ghadis/count']) {
        const refused = await call(t.app, { url, token });
        expect([url, refused.statusCode]).toEqual([url, 403]);
        expect(refused.json()).toEqual({
          success: false,
          passwordChangeRequired: true,
          message: expect.stringContaining('PUT /api/users/me/password'),
        });
      }
      const create = await call(t.app, { method: 'POST', url: '/api/ghadis', token, body: {} });
      expect(create.statusCode).toBe(403);
      // Public reads ignore the token; the account's own routes answer.
      expect((await call(t.app, { url: '/api/ghadis', token })).statusCode).toBe(200);
      const me = expectStatus<MeAnswer>(await call(t.app, { url: '/api/users/me', token }), 200);
      expect(me.data).toMatchObject({ UserName: ADMIN_USERNAME, passwordChangeRequired: true });
      expectStatus(await call(t.app, { url: '/api/users/me/sessions', token }), 200);

      const changed = await call(t.app, {
        method: 'PUT',
        url: '/api/users/me/password',
        token,
        body: { CurrentPassword: generated, NewPassword: 'chosen-by-the-admin' },
      });
      expectStatus(changed, 200);
      expect(fs.existsSync(file)).toBe(false);

      // The same session goes on, now unrestricted; the flag is gone.
      expect((await call(t.app, { url: '/api/users', token })).statusCode).toBe(200);
      const after = expectStatus<MeAnswer>(await call(t.app, { url: '/api/users/me', token }), 200);
      expect(Object.keys(after.data)).not.toContain('passwordChangeRequired');
      expect((await login(t.app, ADMIN_USERNAME, generated, uniqueAddress())).statusCode).toBe(401);
      const again = expectStatus<LoginAnswer>(
        await login(t.app, ADMIN_USERNAME, 'chosen-by-the-admin', uniqueAddress()),
        200,
      );
      expect(Object.keys(again.user)).not.toContain('passwordChangeRequired');

      // A restart on the same database writes no file again.
      await t.restart();
      expect(fs.existsSync(file)).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('the flagged admin may still sign out, and the flag outlives sessions until the password changes', async () => {
    const { t, file } = await start('signed-out');
    try {
      const generated = passwordIn(file);
      const first = expectStatus<LoginAnswer>(
        await login(t.app, ADMIN_USERNAME, generated, uniqueAddress()),
        200,
      );
      expectStatus(await call(t.app, { method: 'POST', url: '/api/users/logout', token: first.token }), 200);
      const second = expectStatus<LoginAnswer>(
        await login(t.app, ADMIN_USERNAME, generated, uniqueAddress()),
        200,
      );
      expect(second.user.passwordChangeRequired).toBe(true);
      expect((await call(t.app, { url: '/api/users', token: second.token })).statusCode).toBe(403);
      // A wrong current password changes nothing and keeps the file.
      const wrong = await call(t.app, {
        method: 'PUT',
        url: '/api/users/me/password',
        token: second.token,
        body: { CurrentPassword: 'not-the-generated-one', NewPassword: 'chosen-by-the-admin' },
      });
      expect(wrong.statusCode).toBe(400);
      expect(fs.existsSync(file)).toBe(true);
      expect((await call(t.app, { url: '/api/users', token: second.token })).statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });

  it('with ADMIN_PASSWORD set, no file is written and nothing is asked', async () => {
    const folder = path.join(dir(), 'chosen');
    fs.mkdirSync(folder);
    const t = await createTestApp(dialect, {
      sqliteFile: path.join(folder, 'site.db'),
      config: { firstAdminPasswordFolder: folder },
    });
    try {
      expect(fs.readdirSync(folder).filter((name) => name === FILE)).toEqual([]);
      const answer = expectStatus<LoginAnswer>(
        await login(t.app, ADMIN_USERNAME, t.config.adminPassword ?? '', uniqueAddress()),
        200,
      );
      expect(Object.keys(answer.user)).not.toContain('passwordChangeRequired');
      expect((await call(t.app, { url: '/api/users', token: answer.token })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
