/**
 * A declaration log of a million entries on a seeded database (seed.ts): every result gets the same
 * number of corrections in result_history, and the app's own backfill turns results and corrections
 * into the hash-chained log and its Merkle tree, as the first start after the log was added does.
 */
import { sql } from 'kysely';
import pino from 'pino';
import { loadConfig } from '../../src/server/config.js';
import type { Database, Executor } from '../../src/server/db/database.js';
import { DeclarationLog } from '../../src/server/modules/declarations/declaration-log.js';
import { DeclarationsRepository } from '../../src/server/modules/declarations/declarations-repository.js';
import type { TransparencyLog } from '../../src/server/modules/transparency/transparency-log.js';
import { openTransparencyLog } from '../../src/server/modules/transparency/transparency-module.js';

/** Rows per insert: five bound values each, far below PostgreSQL's 65 535. */
const ROWS_PER_INSERT = 2000;

/** The two values a result alternates between before its final one (never equal to it). */
const firstOf = (value: string) => (value === '11' ? '22' : '11');
const secondOf = (value: string) => (value === '33' ? '44' : '33');

/** The `j`-th minute past noon on a date, as the log stamps it. */
const stamp = (date: string, minute: number) => `${date}T12:${String(minute).padStart(2, '0')}:00.000Z`;

/**
 * Gives each result `corrections` corrections (at most 58): its first value, then values that
 * alternate until the last one is the value it holds, a minute apart from noon.
 */
export async function addCorrections(
  database: Database,
  corrections: number,
  log: (message: string) => void,
): Promise<number> {
  const results = await database.db
    .selectFrom('results')
    .select(['result_id', 'result_date', 'value'])
    .orderBy('result_id')
    .execute();
  let batch: Array<{ result_id: number; old_value: string; new_value: string; changed_at: string }> = [];
  let written = 0;
  const flush = async (trx: Executor) => {
    if (batch.length === 0) return;
    await trx.insertInto('result_history').values(batch).execute();
    written += batch.length;
    batch = [];
    if (written % 100_000 < ROWS_PER_INSERT) log(`  ${written} corrections`);
  };
  await database.db.transaction().execute(async (trx) => {
    for (const result of results) {
      // Values 0 … corrections-1 alternate so that the one before the last is firstOf(value).
      const valueAt = (j: number) =>
        j === corrections
          ? result.value
          : (corrections - 1 - j) % 2 === 0
            ? firstOf(result.value)
            : secondOf(result.value);
      for (let j = 1; j <= corrections; j++) {
        batch.push({
          result_id: result.result_id,
          old_value: valueAt(j - 1),
          new_value: valueAt(j),
          changed_at: stamp(result.result_date, j),
        });
        if (batch.length === ROWS_PER_INSERT) await flush(trx);
      }
    }
    await flush(trx);
  });
  // What each result shows now: corrected from firstOf(value), at its last correction's time.
  await database.db
    .updateTable('results')
    .set({
      previous_value: sql<string>`case when value = '11' then '22' else '11' end`,
      declared_at: sql<string>`result_date || ${`T12:${String(corrections).padStart(2, '0')}:00.000Z`}`,
    })
    .execute();
  return written;
}

export interface BuiltLog {
  entries: number;
  declarations: DeclarationsRepository;
  /** The log with its tree, as the server appends. */
  withTree: DeclarationLog;
  /** The same log without a tree: an append's cost before the tree's part. */
  withoutTree: DeclarationLog;
  tree: TransparencyLog;
}

/** The app's log over `database`: its backfill builds the entries and the tree when they are missing. */
export async function buildLog(database: Database): Promise<BuiltLog> {
  const config = loadConfig({ LOG_LEVEL: 'silent', LOG_ORIGIN: 'bench.example/log' });
  const tree = await openTransparencyLog(database, config, Date.now, pino({ level: 'silent' }));
  const declarations = new DeclarationsRepository(database);
  const withTree = new DeclarationLog(database, declarations, undefined, tree);
  await withTree.backfill();
  await withTree.catchUpTree();
  const entries = (await withTree.head()).seq;
  return { entries, declarations, withTree, withoutTree: new DeclarationLog(database, declarations), tree };
}
