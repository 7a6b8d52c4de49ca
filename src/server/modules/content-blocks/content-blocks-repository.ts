import type { Selectable } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { ContentBlocksTable } from '../../db/schema.js';

export type ContentBlockRow = Selectable<ContentBlocksTable>;
export interface ContentBlockFields {
  title: string;
  slug: string;
  content: string;
  is_active: number;
}

export class ContentBlocksRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  list(): Promise<ContentBlockRow[]> {
    return this.db.selectFrom('content_blocks').selectAll().orderBy('title').orderBy('block_id').execute();
  }

  findById(blockId: number): Promise<ContentBlockRow | undefined> {
    return this.db
      .selectFrom('content_blocks')
      .selectAll()
      .where('block_id', '=', blockId)
      .executeTakeFirst();
  }

  /** In a write's transaction, as it is until that write commits (PostgreSQL: others' writes wait). */
  findToChange(trx: Executor, blockId: number): Promise<ContentBlockRow | undefined> {
    return trx
      .selectFrom('content_blocks')
      .selectAll()
      .where('block_id', '=', blockId)
      .$if(this.database.dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst();
  }

  /** The active blocks' slugs (few: a site has a handful of blocks). */
  async activeSlugs(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('content_blocks')
      .select('slug')
      .where('is_active', '=', 1)
      .execute();
    return rows.map((row) => row.slug);
  }

  findActiveBySlug(slug: string): Promise<ContentBlockRow | undefined> {
    return this.db
      .selectFrom('content_blocks')
      .selectAll()
      .where('slug', '=', slug)
      .where('is_active', '=', 1)
      .executeTakeFirst();
  }

  async insert(trx: Executor, fields: ContentBlockFields, now: string): Promise<number> {
    const row = await trx
      .insertInto('content_blocks')
      .values({ ...fields, created_at: now, updated_at: now })
      .returning('block_id')
      .executeTakeFirstOrThrow();
    return row.block_id;
  }

  async update(trx: Executor, blockId: number, fields: ContentBlockFields, now: string): Promise<void> {
    await trx
      .updateTable('content_blocks')
      .set({ ...fields, updated_at: now })
      .where('block_id', '=', blockId)
      .execute();
  }

  /** The block as it was, or undefined when there was none. */
  delete(trx: Executor, blockId: number): Promise<ContentBlockRow | undefined> {
    return trx.deleteFrom('content_blocks').where('block_id', '=', blockId).returningAll().executeTakeFirst();
  }
}
