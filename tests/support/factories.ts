import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { addDays, todayInZone } from '../../src/shared/dates.js';
import type { AssignmentRecord } from '../../src/shared/schemas/assignments.js';
import type { ContentBlockRecord } from '../../src/shared/schemas/content-blocks.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { ResultRecord } from '../../src/shared/schemas/results.js';
import type { LoginAnswer, UserRecord } from '../../src/shared/schemas/users.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, SITE_TIMEZONE } from './test-app.js';

export type Response = LightMyRequestResponse;

export interface Failure {
  success: false;
  message: string;
}
export interface List<T> {
  success: true;
  data: T[];
}
export interface Item<T> {
  success: true;
  message?: string;
  data: T;
}
export interface Count {
  success: true;
  count: number;
}

let sequence = 0;

/** A name no other call (in any test file or process) gets: letters and digits only. */
export function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}${process.pid.toString(36)}${sequence.toString(36)}${randomBytes(3).toString('hex')}`;
}

let addressSequence = 0;

/** A client address of its own, so that failed logins in one test do not throttle another. */
export function uniqueAddress(): string {
  addressSequence += 1;
  return `10.${(process.pid >> 8) & 255}.${(addressSequence >> 8) & 255}.${addressSequence & 255}`;
}

/** Business dates relative to today in the site's time zone, so that tests never rot. */
export function today(): string {
  return todayInZone(SITE_TIMEZONE);
}
export function daysFromToday(days: number): string {
  return addDays(today(), days);
}

export interface CallOptions {
  method?: InjectOptions['method'];
  url: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export function call(app: FastifyInstance, options: CallOptions): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const request: InjectOptions = { method: options.method ?? 'GET', url: options.url, headers };
  if (options.body !== undefined) request.payload = options.body as InjectOptions['payload'];
  if (options.remoteAddress) request.remoteAddress = options.remoteAddress;
  return app.inject(request);
}

/** The parsed answer when the status is the expected one; otherwise a failure that shows the answer. */
export function expectStatus<T>(response: Response, status: number): T {
  if (response.statusCode !== status) {
    throw new Error(
      `Expected ${status} from ${response.raw.req.method} ${response.raw.req.url}, ` +
        `got ${response.statusCode}: ${response.body}`,
    );
  }
  return response.json<T>();
}

/** Every key anywhere in a JSON value (to prove a field never appears). */
export function keysDeep(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysDeep);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...keysDeep(inner)]);
  }
  return [];
}

/** Every leaf value anywhere in a JSON value (to prove a value never appears, whatever the times around it say). */
export function valuesDeep(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(valuesDeep);
  if (value && typeof value === 'object') return Object.values(value).flatMap(valuesDeep);
  return [value];
}

export function login(
  app: FastifyInstance,
  UserName: string,
  Password: string,
  remoteAddress?: string,
): Promise<Response> {
  return call(app, {
    method: 'POST',
    url: '/api/users/login',
    body: { UserName, Password },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

export async function loginAs(app: FastifyInstance, UserName: string, Password: string): Promise<string> {
  return expectStatus<LoginAnswer>(await login(app, UserName, Password, uniqueAddress()), 200).token;
}

export function loginAdmin(app: FastifyInstance): Promise<string> {
  return loginAs(app, ADMIN_USERNAME, ADMIN_PASSWORD);
}

export interface AgentFields {
  UserName: string;
  DisplayName: string;
  Email: string;
  Password: string;
  isActive?: boolean;
}

export interface Agent {
  user: UserRecord;
  password: string;
}

export function agentFields(overrides: Partial<AgentFields> = {}): AgentFields {
  const name = unique('agent');
  return {
    UserName: name,
    DisplayName: `Agent ${name}`,
    Email: `${name}@example.com`,
    Password: 'agent-password-1',
    ...overrides,
  };
}

export async function createAgent(
  app: FastifyInstance,
  adminToken: string,
  overrides: Partial<AgentFields> = {},
): Promise<Agent> {
  const fields = agentFields(overrides);
  const answer = expectStatus<Item<UserRecord>>(
    await call(app, { method: 'POST', url: '/api/users', token: adminToken, body: fields }),
    201,
  );
  return { user: answer.data, password: fields.Password };
}

/** An agent and a token of its own. */
export async function createAgentWithToken(
  app: FastifyInstance,
  adminToken: string,
  overrides: Partial<AgentFields> = {},
): Promise<Agent & { token: string }> {
  const agent = await createAgent(app, adminToken, overrides);
  return { ...agent, token: await loginAs(app, agent.user.UserName, agent.password) };
}

export interface GhadiFields {
  NameEn: string;
  NameHn: string;
  RTime: string;
  OrderId: number;
  /** Left out, the server makes a daily jodi ghadi. */
  Kind?: 'jodi' | 'panna' | 'open-close';
  OpenTime?: string | null;
  Days?: number[];
  /** Left out, one person publishes. */
  Confirmations?: 1 | 2;
}

export function ghadiFields(overrides: Partial<GhadiFields> = {}): GhadiFields {
  const name = unique('Ghadi ');
  return { NameEn: name, NameHn: `घड़ी ${name}`, RTime: '6:30 PM', OrderId: 100, ...overrides };
}

export async function createGhadi(
  app: FastifyInstance,
  adminToken: string,
  overrides: Partial<GhadiFields> = {},
): Promise<GhadiRecord> {
  return expectStatus<Item<GhadiRecord>>(
    await call(app, { method: 'POST', url: '/api/ghadis', token: adminToken, body: ghadiFields(overrides) }),
    201,
  ).data;
}

export async function assignGhadis(
  app: FastifyInstance,
  adminToken: string,
  userId: number,
  gid: number | number[],
): Promise<AssignmentRecord[]> {
  return expectStatus<Item<AssignmentRecord[]>>(
    await call(app, {
      method: 'POST',
      url: '/api/usermaps',
      token: adminToken,
      body: { User_Id: userId, GID: gid },
    }),
    201,
  ).data;
}

export function postResult(
  app: FastifyInstance,
  token: string,
  body: { ghadiId: number | string; result: string; dateTime: string; Expected?: string | null },
): Promise<Response> {
  return call(app, { method: 'POST', url: '/api/agent/my-ghadi/update-result', token, body });
}

/** Imports CSV lines (Date, GID, Result) for good: POST /api/results/import, answered 200. */
export async function importResults(
  app: FastifyInstance,
  adminToken: string,
  lines: Array<[string, number, string]>,
): Promise<void> {
  expectStatus(
    await call(app, {
      method: 'POST',
      url: '/api/results/import?dryRun=false',
      token: adminToken,
      body: `Date,GID,Result\n${lines.map((line) => line.join(',')).join('\n')}\n`,
      headers: { 'content-type': 'text/csv; charset=utf-8' },
    }),
    200,
  );
}

export async function submitResult(
  app: FastifyInstance,
  token: string,
  body: { ghadiId: number; result: string; dateTime: string },
): Promise<ResultRecord> {
  return expectStatus<Item<ResultRecord>>(await postResult(app, token, body), 200).data;
}

export interface ContentBlockFields {
  Title: string;
  Slug: string;
  Content: string;
  isActive?: boolean;
}

export function contentBlockFields(overrides: Partial<ContentBlockFields> = {}): ContentBlockFields {
  const slug = unique('block-');
  return { Title: `Title ${slug}`, Slug: slug, Content: `<p>Hello from <b>${slug}</b></p>`, ...overrides };
}

export async function createContentBlock(
  app: FastifyInstance,
  adminToken: string,
  overrides: Partial<ContentBlockFields> = {},
): Promise<ContentBlockRecord> {
  return expectStatus<Item<ContentBlockRecord>>(
    await call(app, {
      method: 'POST',
      url: '/api/contentblocks',
      token: adminToken,
      body: contentBlockFields(overrides),
    }),
    201,
  ).data;
}

export async function getCount(app: FastifyInstance, adminToken: string, what: string): Promise<number> {
  return expectStatus<Count>(await call(app, { url: `/api/${what}/count`, token: adminToken }), 200).count;
}
