import type { Database } from '../../src/server/db/database.js';

/**
 * A session row whose token expired a second ago. Expiry is the token's, on the system clock
 * (decision 0022), so "ago" is that clock's, not a test clock's.
 */
export async function insertExpiredSession(
  database: Database,
  userId: number,
  sessionId: string,
): Promise<void> {
  const past = new Date(Date.now() - 1000).toISOString();
  await database.db
    .insertInto('sessions')
    .values({
      session_id: sessionId,
      user_id: userId,
      method: 'password',
      created_at: past,
      last_seen_at: past,
      expires_at: past,
      ended_at: null,
      ip: '192.0.2.1',
      user_agent: '',
    })
    .execute();
}
