import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

const isPostgresOf = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * A visitors row is written for every new visitor, thousands a second at a result's time. It keeps
 * what is read: the session id (the key) and last_seen, now milliseconds since the epoch, a small
 * integer in the last_seen index where the ISO text took 24 bytes. first_seen, which nothing read,
 * goes. SQLite keeps the rows in the key's own tree (without rowid): two trees to write per session
 * instead of three. Together they halve what storing a new session costs on SQLite.
 */
export async function up(db: AnyDb): Promise<void> {
  if (isPostgresOf(db)) {
    await sql`alter table visitors drop column first_seen`.execute(db);
    await sql`alter table visitors alter column last_seen type bigint
      using round(extract(epoch from last_seen::timestamptz) * 1000)::bigint`.execute(db);
    return;
  }
  await sql`create table visitors_compact (session_id text primary key, last_seen bigint not null) without rowid`.execute(
    db,
  );
  await sql`insert into visitors_compact (session_id, last_seen)
    select session_id, cast(round((julianday(last_seen) - 2440587.5) * 86400000) as integer) from visitors`.execute(
    db,
  );
  await sql`drop table visitors`.execute(db);
  await sql`alter table visitors_compact rename to visitors`.execute(db);
  await sql`create index visitors_last_seen on visitors (last_seen)`.execute(db);
}

/** Back to ISO text, with first_seen taken as last_seen (the first sighting is not known any more). */
export async function down(db: AnyDb): Promise<void> {
  if (isPostgresOf(db)) {
    await sql`alter table visitors alter column last_seen type text
      using to_char(to_timestamp(last_seen / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.execute(
      db,
    );
    await sql`alter table visitors add column first_seen text`.execute(db);
    await sql`update visitors set first_seen = last_seen`.execute(db);
    await sql`alter table visitors alter column first_seen set not null`.execute(db);
    return;
  }
  await sql`create table visitors_text (session_id text primary key, first_seen text not null, last_seen text not null)`.execute(
    db,
  );
  await sql`insert into visitors_text (session_id, first_seen, last_seen)
    select session_id, seen, seen from (
      select session_id, strftime('%Y-%m-%dT%H:%M:%fZ', last_seen / 1000.0, 'unixepoch') as seen from visitors)`.execute(
    db,
  );
  await sql`drop table visitors`.execute(db);
  await sql`alter table visitors_text rename to visitors`.execute(db);
  await sql`create index visitors_last_seen on visitors (last_seen)`.execute(db);
}
