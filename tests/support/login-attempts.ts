import type { Database } from '../../src/server/db/database.js';

/** The login throttle's record of an account's attempts from an address, oldest first ('success' or 'failure'). */
export async function attemptKinds(database: Database, account: string, address: string): Promise<string[]> {
  const rows = await database.db
    .selectFrom('login_attempts')
    .select('kind')
    .where('account', '=', account.toLowerCase())
    .where('address', '=', address)
    .orderBy('attempt_id')
    .execute();
  return rows.map((row) => row.kind);
}
