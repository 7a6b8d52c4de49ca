import { randomInt } from 'node:crypto';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import type { ContentBlockRecord } from '../../../src/shared/schemas/content-blocks.js';
import type { GhadiRecord } from '../../../src/shared/schemas/ghadis.js';
import type { LoginAnswer, UserRecord } from '../../../src/shared/schemas/users.js';
import { E2E_ADMIN } from './constants.js';

let counter = 0;
/** This worker's mark, drawn at random rather than read from the clock. */
const RUN_MARK = randomInt(2 ** 40).toString(36);
/** A name no other test (or earlier run against the same server) uses. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${RUN_MARK}${process.pid.toString(36)}${counter}`;
}

export async function apiLogin(
  request: APIRequestContext,
  username: string,
  password: string,
): Promise<LoginAnswer> {
  const response = await request.post('/api/users/login', {
    data: { UserName: username, Password: password },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as LoginAnswer;
}

/**
 * Ghadis made through the API by the running test (a worker runs one test at a time). They are
 * deleted after the test (support/test.ts): every public page lists every ghadi, so ghadis left by
 * earlier tests, and by earlier repeats of a run, would make each page heavier than the one before.
 */
const ghadisOfTheTest: number[] = [];

/** A ghadi the running test made another way (through the screens), to be deleted after it too. */
export function removeAfterTheTest(gid: number): void {
  ghadisOfTheTest.push(gid);
}

/** The ghadis the running test made through the API, forgotten as they are given. */
export function takeGhadisOfTheTest(): number[] {
  return ghadisOfTheTest.splice(0);
}

/** Seeds data through the real API as the bootstrapped admin. */
export class AdminApi {
  private constructor(
    private readonly request: APIRequestContext,
    readonly token: string,
  ) {}

  static async connect(request: APIRequestContext): Promise<AdminApi> {
    const answer = await apiLogin(request, E2E_ADMIN.username, E2E_ADMIN.password);
    return new AdminApi(request, answer.token);
  }

  private headers() {
    return { authorization: `Bearer ${this.token}` };
  }

  async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, data?: unknown): Promise<T> {
    const response = await this.request.fetch(path, { method, headers: this.headers(), data });
    expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  }

  async createAgent(
    overrides: Partial<{ UserName: string; DisplayName: string; Password: string; isActive: boolean }> = {},
  ) {
    const UserName = overrides.UserName ?? uniqueName('agent');
    const Password = overrides.Password ?? 'agent-password-1';
    const answer = await this.call<{ data: UserRecord }>('POST', '/api/users', {
      UserName,
      DisplayName: overrides.DisplayName ?? `Agent ${UserName}`,
      Email: `${UserName}@example.com`,
      Password,
      isActive: overrides.isActive ?? true,
    });
    return { ...answer.data, Password };
  }

  async createGhadi(
    overrides: Partial<{
      NameEn: string;
      NameHn: string;
      RTime: string;
      OrderId: number;
      Kind: 'jodi' | 'panna' | 'open-close';
      OpenTime: string;
      Days: number[];
      Confirmations: 1 | 2;
    }> = {},
  ) {
    const NameEn = overrides.NameEn ?? uniqueName('Ghadi ');
    const answer = await this.call<{ data: GhadiRecord }>('POST', '/api/ghadis', {
      ...overrides,
      NameEn,
      NameHn: overrides.NameHn ?? `घड़ी ${NameEn}`,
      RTime: overrides.RTime ?? '6:00 PM',
      OrderId: overrides.OrderId ?? 100,
    });
    ghadisOfTheTest.push(answer.data.GID);
    return answer.data;
  }

  assign(userId: number, gids: number | number[]) {
    return this.call('POST', '/api/usermaps', { User_Id: userId, GID: gids });
  }

  /** Deletes the content block with this slug, if there is one (an earlier run may have left it). */
  async removeContentBlock(slug: string): Promise<void> {
    const { data } = await this.call<{ data: ContentBlockRecord[] }>('GET', '/api/contentblocks');
    const block = data.find((candidate) => candidate.Slug === slug);
    if (block) await this.call('DELETE', `/api/contentblocks/${block._id}`);
  }

  /** Deletes ghadis, those already gone (a test that deleted its own) included. */
  async removeGhadis(gids: readonly number[]): Promise<void> {
    for (const gid of gids) {
      const response = await this.request.delete(`/api/ghadis/${gid}`, { headers: this.headers() });
      expect([200, 404], `DELETE /api/ghadis/${gid}: ${await response.text()}`).toContain(response.status());
    }
  }

  submitResult(ghadiId: number, result: string, dateTime: string) {
    return this.call('POST', '/api/agent/my-ghadi/update-result', { ghadiId, result, dateTime });
  }
}

/**
 * Signs a user in the way the app does: the login answer stored under localStorage "user". The
 * storage is reached from the site's robots.txt, a document of the same origin that, unlike a screen
 * of the app, loads no script (the test opens the screen it needs next).
 */
export async function signInAs(page: Page, request: APIRequestContext, username: string, password: string) {
  const answer = await apiLogin(request, username, password);
  await page.goto('/robots.txt');
  await page.evaluate((session) => localStorage.setItem('user', JSON.stringify(session)), {
    ...answer.user,
    token: answer.token,
  });
  return answer;
}

export function signInAsAdmin(page: Page, request: APIRequestContext) {
  return signInAs(page, request, E2E_ADMIN.username, E2E_ADMIN.password);
}
