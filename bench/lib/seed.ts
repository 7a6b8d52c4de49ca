/**
 * Years of results, fast: the database is opened and migrated by the app's own code (the first
 * start's admin, starter ghadis and signing key included), the extra ghadis, agents and assignments
 * go through the app's repositories, and the results are bulk-inserted in large transactions
 * (about 110 000 in a few seconds, where posting them one by one through the API took minutes).
 *
 * Results are authored by a few agents, each assigned some of the ghadis; every tenth day an admin's
 * correction. A finished seed leaves a marker in `settings`, so a SQLite file can be reused by later
 * runs (BENCH_DATABASE, ACCEPTANCE_SQLITE_FILE): opening it again migrates it to the current schema
 * and forgets the login attempts of earlier runs, whose throttle would otherwise still hold, and their
 * visitors.
 */
import type { Insertable } from 'kysely';
import pino from 'pino';
import { prepareDatabase } from '../../src/server/bootstrap.js';
import { loadConfig } from '../../src/server/config.js';
import { type Database, openDatabase } from '../../src/server/db/database.js';
import type { DatabaseTarget } from '../../src/server/db/database-target.js';
import type { ResultsTable } from '../../src/server/db/schema.js';
import { PasswordHasher } from '../../src/server/lib/passwords.js';
import { AssignmentsRepository } from '../../src/server/modules/assignments/assignments-repository.js';
import { GhadisRepository } from '../../src/server/modules/ghadis/ghadis-repository.js';
import { SettingsRepository } from '../../src/server/modules/settings/settings-repository.js';
import { UsersRepository } from '../../src/server/modules/users/users-repository.js';
import { addDays, todayInZone } from '../../src/shared/dates.js';

export interface SeedOptions {
  /** Ghadis in all, the seven starters included. */
  ghadis: number;
  /** Days of results per ghadi, ending today. */
  days: number;
  admin: { username: string; password: string };
  siteTimezone: string;
  log?: (message: string) => void;
}

export interface SeededAgent {
  userId: number;
  username: string;
  password: string;
  displayName: string;
  gids: number[];
}

export interface SeedSummary {
  ghadis: Array<{ gid: number; name: string }>;
  agents: SeededAgent[];
  results: number;
  /** The oldest and the newest business date seeded (the newest was "today" when seeded). */
  firstDate: string;
  lastDate: string;
  ghadiCount: number;
  days: number;
  /** Whether an earlier run's seed was found and reused. */
  reused?: boolean;
}

/** The admin of every seeded database (the bench's and the acceptance checks'). */
export const SEED_ADMIN = { username: 'seed-admin', password: 'seed-admin-password' };

const MARKER = 'bench_seed';
const AGENT_NAMES = ['Ravi Kumar', 'Sunil Sharma', 'Amit Verma', 'Pooja Singh', 'Deepak Yadav'];
const ROWS_PER_INSERT = 1000;
const INSERTS_PER_TRANSACTION = 20;

/** The value seeded for a ghadi and day: two digits, the same on every run. */
export function seededValue(gid: number, day: number): string {
  return String((gid * 37 + day * 13) % 100).padStart(2, '0');
}

function agentUsername(displayName: string): string {
  return displayName.toLowerCase().replace(/\s+/g, '.');
}

/** Seed agents' passwords follow from their names: the runs that reuse a seed can sign them in. */
function agentPassword(username: string): string {
  return `${username}-password`;
}

async function seedAgents(
  database: Database,
  gids: number[],
  hasher: PasswordHasher,
): Promise<SeededAgent[]> {
  const users = new UsersRepository(database);
  const assignments = new AssignmentsRepository(database);
  const now = new Date().toISOString();
  const agents: SeededAgent[] = [];
  for (const [index, displayName] of AGENT_NAMES.entries()) {
    const username = agentUsername(displayName);
    const password = agentPassword(username);
    const userId = await users.insert({
      username,
      display_name: displayName,
      email: `${username}@example.com`,
      password_hash: await hasher.hash(password),
      user_type: 'agent',
      is_active: 1,
      created_at: now,
      updated_at: now,
    });
    const assigned = gids.filter((_, position) => position % AGENT_NAMES.length === index);
    if (assigned.length > 0) await assignments.assign(database.db, userId, assigned, now);
    agents.push({ userId, username, password, displayName, gids: assigned });
  }
  return agents;
}

async function seedGhadis(database: Database, wanted: number): Promise<Array<{ gid: number; name: string }>> {
  const repository = new GhadisRepository(database);
  const ghadis = (await repository.listLive()).map((row) => ({ gid: row.gid, name: row.name_en }));
  const now = new Date().toISOString();
  for (let index = ghadis.length; index < wanted; index++) {
    const name = `Bench Ghadi ${index + 1}`;
    const fields = { name_en: name, name_hn: `बेंच ${index + 1}`, r_time: '6:00 PM', order_id: index + 1 };
    ghadis.push({ gid: await repository.insert(fields, undefined, now), name });
  }
  return ghadis;
}

async function insertResults(
  database: Database,
  summary: Omit<SeedSummary, 'results'>,
  adminId: number,
  log: (message: string) => void,
): Promise<number> {
  const authorOf = new Map<number, number>();
  for (const agent of summary.agents) for (const gid of agent.gids) authorOf.set(gid, agent.userId);
  const rows = function* (): Generator<Insertable<ResultsTable>> {
    for (const ghadi of summary.ghadis) {
      for (let day = 0; day < summary.days; day++) {
        const date = addDays(summary.lastDate, -day);
        const stamp = `${date}T12:00:00.000Z`;
        yield {
          gid: ghadi.gid,
          result_date: date,
          value: seededValue(ghadi.gid, day),
          created_by: day % 10 === 9 ? adminId : (authorOf.get(ghadi.gid) ?? adminId),
          created_at: stamp,
          updated_at: stamp,
          declared_at: stamp,
        };
      }
    }
  };
  let batch: Array<Insertable<ResultsTable>> = [];
  let pending: Array<typeof batch> = [];
  let written = 0;
  const commit = async () => {
    const inserts = pending;
    pending = [];
    await database.db.transaction().execute(async (trx) => {
      for (const values of inserts) await trx.insertInto('results').values(values).execute();
    });
    written += inserts.reduce((sum, values) => sum + values.length, 0);
    log(`  ${written} results`);
  };
  for (const row of rows()) {
    batch.push(row);
    if (batch.length === ROWS_PER_INSERT) {
      pending.push(batch);
      batch = [];
      if (pending.length === INSERTS_PER_TRANSACTION) await commit();
    }
  }
  if (batch.length > 0) pending.push(batch);
  if (pending.length > 0) await commit();
  return written;
}

/**
 * Seeds `target` (an empty database, or one this module seeded before with the same options, which
 * is reused) and answers what it holds.
 */
export async function seedDatabase(target: DatabaseTarget, options: SeedOptions): Promise<SeedSummary> {
  const log = options.log ?? (() => {});
  const config = loadConfig({
    ADMIN_USERNAME: options.admin.username,
    ADMIN_PASSWORD: options.admin.password,
    SITE_TIMEZONE: options.siteTimezone,
    LOG_LEVEL: 'silent',
  });
  const hasher = new PasswordHasher(config.passwordMemoryCost);
  const database = openDatabase(target, { poolSize: 2 });
  try {
    await prepareDatabase(database, { ...config, database: target }, hasher, pino({ level: 'silent' }));
    const settings = new SettingsRepository(database);
    const marker = await settings.get(MARKER);
    if (marker) {
      const summary = JSON.parse(marker) as SeedSummary;
      if (summary.ghadiCount !== options.ghadis || summary.days !== options.days) {
        throw new Error(
          `this database was seeded with ${summary.ghadiCount} ghadis × ${summary.days} days, ` +
            `not ${options.ghadis} × ${options.days}: use another file`,
        );
      }
      // The throttle's memory of earlier runs (the auth checks attack the admin) would slow this one.
      await database.db.deleteFrom('login_attempts').execute();
      await database.db.deleteFrom('login_attempt_counts').execute();
      // Each run starts with no visitors: a bench run adds hundreds of thousands, and a new visitor's
      // write (and the counter's recount of the active ones) costs more in a fuller table.
      await database.db.deleteFrom('visitors').execute();
      await database.db.updateTable('visitor_totals').set({ total: 0 }).execute();
      return { ...summary, reused: true };
    }
    const existing = await database.db.selectFrom('results').select('result_id').limit(1).execute();
    if (existing.length > 0)
      throw new Error('this database holds results but no finished seed: use another one');

    const started = Date.now();
    const admin = await new UsersRepository(database).findByUsername(options.admin.username);
    if (!admin) throw new Error(`no admin named ${options.admin.username} in the database`);
    const ghadis = await seedGhadis(database, options.ghadis);
    const agents = await seedAgents(
      database,
      ghadis.map((ghadi) => ghadi.gid),
      hasher,
    );
    const lastDate = todayInZone(options.siteTimezone);
    const shape = {
      ghadis,
      agents,
      firstDate: addDays(lastDate, -(options.days - 1)),
      lastDate,
      ghadiCount: options.ghadis,
      days: options.days,
    };
    const results = await insertResults(database, shape, admin.user_id, log);
    const summary: SeedSummary = { ...shape, results };
    await settings.putIfAbsent(MARKER, JSON.stringify(summary));
    log(
      `seeded ${ghadis.length} ghadis, ${agents.length} agents, ${results} results in ${Date.now() - started} ms`,
    );
    return summary;
  } finally {
    await database.close();
  }
}
