/**
 * The hot bench's weekly chart needs an open/close market, which the seed has not: its ghadis are
 * jodi ghadis, which other scenarios declare two-digit values on and the acceptance checks compare
 * with seededValue. So the hot scenario runs on a copy of the seeded file with one market added
 * beside them, a whole day's value on every day of the seed's range; the seeded file is untouched.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Insertable } from 'kysely';
import { openDatabase } from '../../src/server/db/database.js';
import type { ResultsTable } from '../../src/server/db/schema.js';
import { GhadisRepository } from '../../src/server/modules/ghadis/ghadis-repository.js';
import { addDays } from '../../src/shared/dates.js';
import { ALL_DAYS, daysToMask, isPanna, wholeValue } from '../../src/shared/matka.js';
import type { SeedSummary } from './seed.js';

export const BENCH_MARKET = 'Bench Market';

const PANNAS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0')).filter(isPanna);
const ROWS_PER_INSERT = 1000;

/** The market's value of its `day`th day: the same on every run. */
function marketValue(day: number): string {
  return wholeValue(
    PANNAS[(day * 37) % PANNAS.length] as string,
    PANNAS[(day * 91 + 7) % PANNAS.length] as string,
  );
}

/**
 * A copy of the seeded SQLite `file` in `dir` with the market added (made again each run: a copy
 * is seconds), and the market's name.
 */
export async function withBenchMarket(
  file: string,
  seed: SeedSummary,
  dir: string,
): Promise<{ file: string; name: string }> {
  const copy = path.join(dir, `${path.basename(file, '.db')}-with-market.db`);
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${copy}${suffix}`, { force: true });
  fs.copyFileSync(file, copy);
  const database = openDatabase({ kind: 'sqlite', file: copy }, { poolSize: 1 });
  try {
    const now = new Date().toISOString();
    const gid = await new GhadisRepository(database).insert(
      {
        name_en: BENCH_MARKET,
        name_hn: 'बेंच मार्केट',
        r_time: '9:00 PM',
        order_id: seed.ghadiCount + 1,
        kind: 'open-close',
        open_time: '3:00 PM',
        days: daysToMask(ALL_DAYS),
      },
      undefined,
      now,
    );
    const rows: Array<Insertable<ResultsTable>> = [];
    for (let day = 0; day < seed.days; day++) {
      const date = addDays(seed.lastDate, -day);
      const stamp = `${date}T12:00:00.000Z`;
      rows.push({
        gid,
        result_date: date,
        value: marketValue(day),
        created_by: null,
        created_at: stamp,
        updated_at: stamp,
        declared_at: stamp,
      });
    }
    await database.db.transaction().execute(async (trx) => {
      for (let at = 0; at < rows.length; at += ROWS_PER_INSERT)
        await trx
          .insertInto('results')
          .values(rows.slice(at, at + ROWS_PER_INSERT))
          .execute();
    });
  } finally {
    await database.close();
  }
  return { file: copy, name: BENCH_MARKET };
}
