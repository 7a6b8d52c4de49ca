import type { Selectable } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { LogCheckpointsTable } from '../../db/schema.js';
import type { NodeId } from './merkle-tree.js';

export type CheckpointRow = Selectable<LogCheckpointsTable>;

/** A stored node with its hash as bytes. */
export type StoredNode = NodeId & { hash: Buffer };

/** Rows per insert statement (a catch-up writes two per entry). */
const INSERT_CHUNK = 500;

/** Node ids per select (each is two bound values). */
const SELECT_CHUNK = 200;

export const nodeKey = ({ level, index }: NodeId) => `${level}/${index}`;

const nodeRow = (node: StoredNode) => ({
  level: node.level,
  node_index: node.index,
  hash: node.hash.toString('base64'),
});

/** Every query of the transparency log's tree and checkpoints. */
export class LogTreeRepository {
  constructor(private readonly database: Database) {}

  /** Leaves the tree holds: the level-0 nodes, numbered from 0 without gaps. */
  async size(db: Executor = this.database.db): Promise<number> {
    const row = await db
      .selectFrom('log_nodes')
      .select('node_index')
      .where('level', '=', 0)
      .orderBy('node_index', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? row.node_index + 1 : 0;
  }

  /** The hashes of the given nodes, by nodeKey (a node not stored is missing from the map). */
  async nodes(ids: readonly NodeId[], db: Executor = this.database.db): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    for (let start = 0; start < ids.length; start += SELECT_CHUNK) {
      const chunk = ids.slice(start, start + SELECT_CHUNK);
      const rows = await db
        .selectFrom('log_nodes')
        .select(['level', 'node_index', 'hash'])
        .where((eb) =>
          eb.or(chunk.map((id) => eb.and([eb('level', '=', id.level), eb('node_index', '=', id.index)]))),
        )
        .execute();
      for (const row of rows)
        found.set(nodeKey({ level: row.level, index: row.node_index }), Buffer.from(row.hash, 'base64'));
    }
    return found;
  }

  /** The hashes of `count` nodes of one level from `first` on, in order (a tile's). */
  async levelRange(level: number, first: number, count: number): Promise<Buffer[]> {
    const rows = await this.database.db
      .selectFrom('log_nodes')
      .select('hash')
      .where('level', '=', level)
      .where('node_index', '>=', first)
      .where('node_index', '<', first + count)
      .orderBy('node_index')
      .execute();
    return rows.map((row) => Buffer.from(row.hash, 'base64'));
  }

  async insertNodes(trx: Executor, nodes: readonly StoredNode[]): Promise<void> {
    for (let start = 0; start < nodes.length; start += INSERT_CHUNK) {
      await trx
        .insertInto('log_nodes')
        .values(nodes.slice(start, start + INSERT_CHUNK).map(nodeRow))
        .execute();
    }
  }

  /** The hashed fields of the entries after `after`, oldest first (leaves the tree does not hold yet). */
  entriesAfter(trx: Executor, after: number, limit: number) {
    return trx
      .selectFrom('declarations')
      .select(['seq', 'gid', 'result_date', 'value', 'previous', 'declared_at', 'hash'])
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /** The hashed fields of the entries from `first` (a seq) on, at most `count` (an entry bundle's). */
  entriesFrom(first: number, count: number) {
    return this.entriesAfter(this.database.db, first - 1, count);
  }

  async deleteAll(trx: Executor): Promise<void> {
    await trx.deleteFrom('log_nodes').execute();
    await trx.deleteFrom('log_checkpoints').execute();
  }

  latestCheckpoint(db: Executor = this.database.db): Promise<CheckpointRow | undefined> {
    return db.selectFrom('log_checkpoints').selectAll().orderBy('size', 'desc').limit(1).executeTakeFirst();
  }

  /**
   * Nodes and the checkpoint that signs them. On PostgreSQL one statement (a data-modifying WITH), as
   * every append pays a round trip per statement; SQLite, in this process, runs two.
   */
  async insertGrowth(trx: Executor, nodes: readonly StoredNode[], checkpoint: CheckpointRow): Promise<void> {
    const rows = nodes.map(nodeRow);
    if (this.database.dialect === 'postgres' && rows.length > 0 && rows.length <= INSERT_CHUNK) {
      await trx
        .with('added_nodes', (db) => db.insertInto('log_nodes').values(rows))
        .insertInto('log_checkpoints')
        .values(checkpoint)
        .execute();
      return;
    }
    await this.insertNodes(trx, nodes);
    await trx.insertInto('log_checkpoints').values(checkpoint).execute();
  }
}
