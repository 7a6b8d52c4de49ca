import type { ContentBlockInput, ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import { isUniqueViolation } from '../../db/database.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import { recordIds } from '../../lib/record-ids.js';
import { sanitizeContentHtml } from '../../lib/sanitize-html.js';
import type { ChangeLog } from '../changes/change-log.js';
import type {
  ContentBlockFields,
  ContentBlockRow,
  ContentBlocksRepository,
} from './content-blocks-repository.js';

function toRecord(row: ContentBlockRow): ContentBlockRecord {
  return {
    ...recordIds(row.block_id),
    Title: row.title,
    Slug: row.slug,
    Content: row.content,
    isActive: row.is_active === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toFields(input: ContentBlockInput): ContentBlockFields {
  const content = sanitizeContentHtml(input.Content);
  if (!content) throw new BadRequestError('Content: Has nothing left to show once unsafe HTML is removed');
  return { title: input.Title, slug: input.Slug, content, is_active: input.isActive ? 1 : 0 };
}

export class ContentBlocksService {
  constructor(
    private readonly blocks: ContentBlocksRepository,
    private readonly changes: ChangeLog,
  ) {}

  async list(): Promise<ContentBlockRecord[]> {
    return (await this.blocks.list()).map(toRecord);
  }

  async findActiveBySlug(slug: string): Promise<ContentBlockRecord> {
    const row = await this.blocks.findActiveBySlug(slug.toLowerCase());
    if (!row) throw new NotFoundError('Content block not found');
    return toRecord(row);
  }

  async create(input: ContentBlockInput): Promise<ContentBlockRecord> {
    const fields = toFields(input);
    const blockId = await this.save(() =>
      this.changes.write(
        (trx) => this.blocks.insert(trx, fields, new Date().toISOString()),
        () => [{ kind: 'content', slug: fields.slug }],
      ),
    );
    return this.get(blockId);
  }

  async update(blockId: number, input: ContentBlockInput): Promise<ContentBlockRecord> {
    const before = await this.get(blockId);
    const fields = toFields(input);
    // A new slug changes two public answers: the old one disappears, the new one appears.
    const slugs = before.Slug === fields.slug ? [fields.slug] : [before.Slug, fields.slug];
    await this.save(() =>
      this.changes.write(
        (trx) => this.blocks.update(trx, blockId, fields, new Date().toISOString()),
        () => slugs.map((slug) => ({ kind: 'content' as const, slug })),
      ),
    );
    return this.get(blockId);
  }

  async delete(blockId: number): Promise<void> {
    const before = await this.get(blockId);
    const deleted = await this.changes.write(
      (trx) => this.blocks.delete(trx, blockId),
      (done) => (done ? [{ kind: 'content', slug: before.Slug }] : []),
    );
    if (!deleted) throw new NotFoundError('Content block not found');
  }

  private async get(blockId: number): Promise<ContentBlockRecord> {
    const row = await this.blocks.findById(blockId);
    if (!row) throw new NotFoundError('Content block not found');
    return toRecord(row);
  }

  private async save<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError('Slug already exists');
      throw error;
    }
  }
}
