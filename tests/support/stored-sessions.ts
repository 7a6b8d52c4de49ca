import type { Database } from '../../src/server/db/database.js';

/** A session row whose token expired long ago, by any clock (expiry is the token's: decision 0022). */
export async function insertExpiredSession(
  database: Database,
  userId: number,
  sessionId: string,
): Promise<void> {
  const past = '2001-01-01T00:00:00.000Z';
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
