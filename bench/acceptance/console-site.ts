/**
 * The console group's site (console-checks.ts), driven through the API as an operator and agents
 * would, each request from an address (X-Forwarded-For) and a user agent of its own. Every action
 * also keeps what the server must show for it: the board's model (ghadis, agents, assignments,
 * today's results), the activity entries it must have written, today's counts, and every password
 * and token sent (none may be shown back).
 */
import { addressSource, send } from '../lib/client.js';
import { jsonOf, type TimedAnswer, type TimedOptions } from '../lib/timed-request.js';
import type { SiteClock } from './console-clock.js';

export type Role = 'admin' | 'agent';

/** One request as sent: the client the server must record, and when it ran. */
export interface Sent {
  address: string;
  userAgent: string;
  startedAt: number;
  endedAt: number;
  answer: TimedAnswer;
}

export interface Person {
  userId: number;
  userName: string;
  displayName: string;
  role: Role;
  password: string;
  token?: string;
  deleted: boolean;
  /** The first authenticated request: lastSeenAt must fall in it (null while there was none). */
  firstSeen: Sent | null;
}

export interface GhadiModel {
  GID: number;
  NameEn: string;
  NameHn: string;
  RTime: string;
  OrderId: number;
  deleted: boolean;
}

export interface StoredResult {
  value: string;
  corrected: boolean;
  by: Person;
  sent: Sent;
  /** The first declaration's request: a result's time for the per-ghadi punctuality. */
  firstSent: Sent;
}

/** An entry GET /api/activity must hold. */
export interface ExpectedEntry {
  action: string;
  /** null: a failed login by a name no account has. */
  who: Person | null;
  target: { id: string | null; name: string };
  /** Texts its Summary must contain. */
  summaryHas: string[];
  sent: Sent;
}

type Call = Omit<TimedOptions, 'headers'> & { token?: string; headers?: Record<string, string> };

const display = (person: Person) => person.displayName || person.userName;

export class ConsoleSite {
  readonly people = new Map<number, Person>();
  readonly ghadis = new Map<number, GhadiModel>();
  readonly assignments = new Map<number, { userId: number; gid: number }>();
  /** By `${GID}|${date}`. */
  readonly results = new Map<string, StoredResult>();
  readonly entries: ExpectedEntry[] = [];
  /** What today's entry of the daily numbers must have gained. */
  readonly counts = { visitors: 0, declarations: 0, corrections: 0 };
  /** Every password and token used: none may appear in the activity trail. */
  readonly secrets = new Set<string>();
  private readonly nextAddress = addressSource();
  private requests = 0;

  constructor(
    readonly url: string,
    readonly clock: SiteClock,
  ) {}

  /** A request from a client of its own (a new address and user agent). */
  async request(method: NonNullable<TimedOptions['method']>, path: string, call: Call = {}): Promise<Sent> {
    const address = this.nextAddress();
    const userAgent = `ConsoleCheck/1.0 (request ${++this.requests})`;
    const startedAt = Date.now();
    const answer = await send(this.url, path, {
      ...call,
      method,
      address,
      headers: { 'user-agent': userAgent, ...call.headers },
    });
    return { address, userAgent, startedAt, endedAt: Date.now(), answer };
  }

  /** The same, failing when the status is not the one expected. */
  async call(method: NonNullable<TimedOptions['method']>, path: string, status: number, call: Call = {}) {
    const sent = await this.request(method, path, call);
    if (sent.answer.status !== status)
      throw new Error(
        `${method} ${path}: ${sent.answer.status} (expected ${status}) ${sent.answer.body.toString().slice(0, 300)}`,
      );
    return sent;
  }

  private record(
    action: string,
    who: Person | null,
    target: ExpectedEntry['target'],
    sent: Sent,
    summaryHas: string[] = [],
  ) {
    this.entries.push({ action, who, target, summaryHas, sent });
  }

  person(userId: number): Person {
    const person = this.people.get(userId);
    if (!person) throw new Error(`no user ${userId}`);
    return person;
  }

  ghadi(gid: number): GhadiModel {
    const ghadi = this.ghadis.get(gid);
    if (!ghadi) throw new Error(`no ghadi ${gid}`);
    return ghadi;
  }

  /** The ghadis already there (the starter ones, on an empty database), from the public list. */
  async loadGhadis(): Promise<number> {
    const sent = await this.call('GET', '/api/ghadis', 200);
    const list = jsonOf<{ data: Array<Omit<GhadiModel, 'deleted'>> }>(sent.answer, 'GET /api/ghadis').data;
    for (const { GID, NameEn, NameHn, RTime, OrderId } of list)
      this.ghadis.set(GID, { GID, NameEn, NameHn, RTime, OrderId, deleted: false });
    return list.length;
  }

  async signIn(person: Person, password = person.password): Promise<string> {
    const sent = await this.call('POST', '/api/users/login', 200, {
      json: { UserName: person.userName, Password: password },
    });
    const body = jsonOf<{ token: string; user: { User_Id: number; DisplayName: string } }>(
      sent.answer,
      'login',
    );
    person.token = body.token;
    person.userId = body.user.User_Id;
    person.displayName = body.user.DisplayName;
    this.people.set(person.userId, person);
    this.secrets.add(password).add(body.token);
    this.record('login', person, { id: String(person.userId), name: person.userName }, sent);
    return body.token;
  }

  /** A refused sign-in: the account's (wrong password) or, with no person, a name no account has. */
  async failSignIn(userName: string, password: string, person: Person | null): Promise<void> {
    const sent = await this.call('POST', '/api/users/login', 401, {
      json: { UserName: userName, Password: password },
    });
    this.secrets.add(password);
    // A name no account has is kept masked: its first two characters and its length (`Hu… (18)`).
    const characters = Array.from(userName);
    const masked = `${characters.slice(0, 2).join('')}… (${characters.length})`;
    const target = person ? { id: String(person.userId), name: person.userName } : { id: null, name: masked };
    this.record('login_failed', person, target, sent);
  }

  async logout(person: Person): Promise<void> {
    const sent = await this.call('POST', '/api/users/logout', 200, { token: person.token });
    this.record('logout', person, { id: String(person.userId), name: person.userName }, sent);
  }

  /** Any authenticated request of the person's: the board's lastSeenAt. */
  async touch(person: Person, path: string, status = 200): Promise<void> {
    const sent = await this.call('GET', path, status, { token: person.token });
    person.firstSeen ??= sent;
  }

  async createGhadi(admin: Person, fields: Omit<GhadiModel, 'GID' | 'deleted'>): Promise<GhadiModel> {
    const sent = await this.call('POST', '/api/ghadis', 201, { token: admin.token, json: fields });
    const { GID } = jsonOf<{ data: { GID: number } }>(sent.answer, 'POST /api/ghadis').data;
    const ghadi = { ...fields, GID, deleted: false };
    this.ghadis.set(GID, ghadi);
    this.record('ghadi_create', admin, { id: String(GID), name: fields.NameEn }, sent, [
      `NameEn: ${JSON.stringify(fields.NameEn)}`,
      `RTime: ${JSON.stringify(fields.RTime)}`,
    ]);
    return ghadi;
  }

  async updateGhadi(admin: Person, gid: number, change: Partial<Omit<GhadiModel, 'GID' | 'deleted'>>) {
    const ghadi = this.ghadi(gid);
    const fields = { NameEn: ghadi.NameEn, NameHn: ghadi.NameHn, RTime: ghadi.RTime, OrderId: ghadi.OrderId };
    const updated = { ...fields, ...change };
    const sent = await this.call('PUT', `/api/ghadis/${gid}`, 200, { token: admin.token, json: updated });
    const changes = Object.entries(change).map(
      ([field, value]) =>
        `${field}: ${JSON.stringify(fields[field as keyof typeof fields])} → ${JSON.stringify(value)}`,
    );
    Object.assign(ghadi, updated);
    this.record('ghadi_update', admin, { id: String(gid), name: ghadi.NameEn }, sent, changes);
  }

  async deleteGhadi(admin: Person, gid: number): Promise<void> {
    const ghadi = this.ghadi(gid);
    const sent = await this.call('DELETE', `/api/ghadis/${gid}`, 200, { token: admin.token });
    ghadi.deleted = true;
    for (const [id, assignment] of this.assignments) if (assignment.gid === gid) this.assignments.delete(id);
    this.record('ghadi_delete', admin, { id: String(gid), name: ghadi.NameEn }, sent);
  }

  async createAgent(admin: Person, userName: string, displayName: string, password: string): Promise<Person> {
    const json = {
      UserName: userName,
      DisplayName: displayName,
      Email: `${userName}@example.com`,
      Password: password,
    };
    const sent = await this.call('POST', '/api/users', 201, { token: admin.token, json });
    const { User_Id } = jsonOf<{ data: { User_Id: number } }>(sent.answer, 'POST /api/users').data;
    const person: Person = {
      userId: User_Id,
      userName,
      displayName,
      role: 'agent',
      password,
      deleted: false,
      firstSeen: null,
    };
    this.people.set(User_Id, person);
    this.secrets.add(password);
    this.record('user_create', admin, { id: String(User_Id), name: userName }, sent, [
      `UserName: ${JSON.stringify(userName)}`,
      `DisplayName: ${JSON.stringify(displayName)}`,
    ]);
    return person;
  }

  /** A new display name and a new password (which ends the agent's tokens). */
  async updateAgent(admin: Person, person: Person, displayName: string, password: string): Promise<void> {
    const json = {
      UserName: person.userName,
      DisplayName: displayName,
      Email: `${person.userName}@example.com`,
      Password: password,
    };
    const sent = await this.call('PUT', `/api/users/${person.userId}`, 200, { token: admin.token, json });
    this.secrets.add(password);
    this.record('user_update', admin, { id: String(person.userId), name: person.userName }, sent, [
      `DisplayName: ${JSON.stringify(person.displayName)} → ${JSON.stringify(displayName)}`,
      'password changed',
    ]);
    person.displayName = displayName;
    person.password = password;
    person.token = undefined;
  }

  async deleteAgent(admin: Person, person: Person): Promise<void> {
    const sent = await this.call('DELETE', `/api/users/${person.userId}`, 200, { token: admin.token });
    person.deleted = true;
    for (const [id, assignment] of this.assignments)
      if (assignment.userId === person.userId) this.assignments.delete(id);
    this.record('user_delete', admin, { id: String(person.userId), name: person.userName }, sent);
  }

  /** One assignment (and one entry) per ghadi; the assignments' ids by GID. */
  async assign(admin: Person, person: Person, gids: number[]): Promise<Map<number, number>> {
    const json = { User_Id: person.userId, GID: gids };
    const sent = await this.call('POST', '/api/usermaps', 201, { token: admin.token, json });
    const made = jsonOf<{ data: Array<{ id: string; GID: number }> }>(sent.answer, 'POST /api/usermaps').data;
    for (const { id, GID } of made) {
      this.assignments.set(Number(id), { userId: person.userId, gid: GID });
      const name = `${person.userName} → ${this.ghadi(GID).NameEn}`;
      this.record('assignment_create', admin, { id, name }, sent);
    }
    return new Map(made.map(({ id, GID }) => [GID, Number(id)]));
  }

  async unassign(admin: Person, assignmentId: number): Promise<void> {
    const assignment = this.assignments.get(assignmentId);
    if (!assignment) throw new Error(`no assignment ${assignmentId}`);
    const sent = await this.call('DELETE', `/api/usermaps/${assignmentId}`, 200, { token: admin.token });
    this.assignments.delete(assignmentId);
    const name = `${this.person(assignment.userId).userName} → ${this.ghadi(assignment.gid).NameEn}`;
    this.record('assignment_delete', admin, { id: String(assignmentId), name }, sent);
  }

  /** A value as stored: a first declaration, a correction, or the same value (nothing changes). */
  private stored(person: Person, gid: number, date: string, value: string, sent: Sent) {
    const key = `${gid}|${date}`;
    const old = this.results.get(key);
    if (old?.value === value) return { kind: 'unchanged' as const, previous: value };
    this.results.set(key, {
      value,
      corrected: old !== undefined,
      by: person,
      sent,
      firstSent: old?.firstSent ?? sent,
    });
    if (old) this.counts.corrections++;
    else this.counts.declarations++;
    return { kind: old ? ('corrected' as const) : ('created' as const), previous: old?.value ?? null };
  }

  /** POST /api/agent/my-ghadi/update-result, by an agent or an admin. */
  async declare(person: Person, gid: number, date: string, value: string): Promise<void> {
    const json = { ghadiId: gid, result: value, dateTime: date };
    const sent = await this.call('POST', '/api/agent/my-ghadi/update-result', 200, {
      token: person.token,
      json,
    });
    const { id } = jsonOf<{ data: { id: string } }>(sent.answer, 'update-result').data;
    const outcome = this.stored(person, gid, date, value, sent);
    const target = { id, name: `${this.ghadi(gid).NameEn} ${date}` };
    if (outcome.kind === 'created')
      this.record('result_declare', person, target, sent, [`Result: ${JSON.stringify(value)}`]);
    if (outcome.kind === 'corrected')
      this.record('result_correct', person, target, sent, [
        `Result: ${JSON.stringify(outcome.previous)} → ${JSON.stringify(value)}`,
      ]);
  }

  /** The admin's CSV import (dryRun=false): one entry, named by its dates, with its counts. */
  async importCsv(admin: Person, lines: Array<[string, number, string]>, dryRun = false) {
    const data = Buffer.from(`Date,GID,Result\n${lines.map((line) => line.join(',')).join('\n')}\n`);
    const sent = await this.call('POST', `/api/results/import?dryRun=${dryRun}`, 200, {
      token: admin.token,
      raw: { type: 'text/csv', data },
    });
    const answer = jsonOf<{ created: number; corrected: number; unchanged: number }>(sent.answer, 'import');
    if (dryRun) return answer;
    const counts = { created: 0, corrected: 0, unchanged: 0 };
    for (const [date, gid, value] of lines) counts[this.stored(admin, gid, date, value, sent).kind]++;
    const dates = lines.map(([date]) => date).sort();
    const name = dates[0] === dates.at(-1) ? (dates[0] ?? '') : `${dates[0]} to ${dates.at(-1)}`;
    this.record('results_import', admin, { id: null, name }, sent, [
      `${counts.created} created, ${counts.corrected} corrected, ${counts.unchanged} unchanged`,
    ]);
    return answer;
  }

  async contentBlock(
    admin: Person,
    title: string,
    slug: string,
    content: string,
    id?: string,
  ): Promise<string> {
    const json = { Title: title, Slug: slug, Content: content };
    const sent = id
      ? await this.call('PUT', `/api/contentblocks/${id}`, 200, { token: admin.token, json })
      : await this.call('POST', '/api/contentblocks', 201, { token: admin.token, json });
    const made = jsonOf<{ data: { id: string; Title: string } }>(sent.answer, 'content block').data;
    const summaryHas = id ? [] : [`Title: ${JSON.stringify(title)}`];
    this.record(
      id ? 'content_update' : 'content_create',
      admin,
      { id: made.id, name: title },
      sent,
      summaryHas,
    );
    return made.id;
  }

  async deleteContentBlock(admin: Person, id: string, title: string): Promise<void> {
    const sent = await this.call('DELETE', `/api/contentblocks/${id}`, 200, { token: admin.token });
    this.record('content_delete', admin, { id, name: title }, sent);
  }

  /** A visitor's session, from an address of its own; counted once however often it is seen. */
  async track(sessionId: string, isNew: boolean): Promise<void> {
    await this.call('POST', '/api/visitor/track', 200, {
      headers: { 'x-session-id': sessionId, origin: this.url },
    });
    if (isNew) this.counts.visitors++;
  }

  /** Who the board names for a result. */
  declaredBy(result: StoredResult): string {
    return display(result.by);
  }
}
