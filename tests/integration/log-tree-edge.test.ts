import { createHash } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeclarationLog, type Declared } from '../../src/server/modules/declarations/declaration-log.js';
import { DeclarationsRepository } from '../../src/server/modules/declarations/declarations-repository.js';
import { openTransparencyLog } from '../../src/server/modules/transparency/transparency-module.js';
import { createGhadi, loginAdmin } from '../support/factories.js';
import { createTestApp, DIALECTS, type TestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

/*
 * An append grows the tree from the edge its process last left (transparency-log.ts) without reading
 * it back: these check that the edge is dropped whenever the database may hold another tree (a
 * rolled-back append, another process's entries), by holding every checkpoint against the root
 * recomputed here from the stored entries.
 */

// RFC 6962's root, written here from the RFC's text.
const sha256 = (...parts: Buffer[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};
function mth(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return leaves[0] as Buffer;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha256(Buffer.of(1), mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

describe.each(DIALECTS)('the tree grown from the edge a process keeps [%s]', (dialect) => {
  let t: TestApp;
  let gid: number;
  const clock = new TestClock(Date.UTC(2026, 0, 1));

  beforeAll(async () => {
    t = await createTestApp(dialect);
    gid = (await createGhadi(t.app, await loginAdmin(t.app))).GID;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A log with its own tree, as another process of the site would have. */
  async function processLog() {
    const tree = await openTransparencyLog(t.database, t.config, clock.now, pino({ level: 'silent' }));
    return new DeclarationLog(t.database, new DeclarationsRepository(t.database), undefined, tree);
  }

  let day = 0;
  const declared = (): Declared => {
    day += 1;
    return {
      gid,
      date: `2001-01-${String(day).padStart(2, '0')}`,
      value: String(10 + day),
      previous: null,
      declaredAt: `2001-01-${String(day).padStart(2, '0')}T12:00:00.000Z`,
      declaredBy: null,
    };
  };

  const append = (log: DeclarationLog) =>
    t.database.db.transaction().execute((trx) => log.append(trx, [declared()]));

  /** The latest checkpoint's size and root, against the tree of every stored entry. */
  async function expectSignedTreeOfEveryEntry() {
    const rows = await t.database.db
      .selectFrom('declarations')
      .select(['seq', 'gid', 'result_date', 'value', 'previous', 'declared_at'])
      .orderBy('seq')
      .execute();
    const leaves = rows.map((row) =>
      sha256(
        Buffer.of(0),
        Buffer.from(
          JSON.stringify([row.seq, row.gid, row.result_date, row.value, row.previous, row.declared_at]),
        ),
      ),
    );
    const latest = await t.database.db
      .selectFrom('log_checkpoints')
      .select(['size', 'root'])
      .orderBy('size', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(latest).toEqual({ size: rows.length, root: mth(leaves).toString('base64') });
  }

  it('after an append that rolled back', async () => {
    const log = await processLog();
    await append(log);
    await append(log);
    await expectSignedTreeOfEveryEntry();
    const rolledBack = t.database.db.transaction().execute(async (trx) => {
      await log.append(trx, [declared()]);
      throw new Error('the result write after it failed');
    });
    await expect(rolledBack).rejects.toThrow('the result write after it failed');
    await append(log);
    await expectSignedTreeOfEveryEntry();
  });

  it('after another process appended', async () => {
    const [one, other] = [await processLog(), await processLog()];
    await append(one);
    await append(other);
    await append(one);
    await append(one);
    await append(other);
    await expectSignedTreeOfEveryEntry();
  });
});
