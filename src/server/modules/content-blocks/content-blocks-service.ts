import type { ContentBlockInput, ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import { isUniqueViolation } from '../../db/database.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import type { ChangeFeed } from '../../lib/change-feed.js';
import { recordIds } from '../../lib/record-ids.js';
import { sanitizeContentHtml } from '../../lib/sanitize-html.js';
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
    private readonly changes: ChangeFeed,
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
    const blockId = await this.save(() => this.blocks.insert(toFields(input), new Date().toISOString()));
    this.changes.publish({ kind: 'content', slug: input.Slug });
    return this.get(blockId);
  }

  async update(blockId: number, input: ContentBlockInput): Promise<ContentBlockRecord> {
    const before = await this.get(blockId);
    await this.save(() => this.blocks.update(blockId, toFields(input), new Date().toISOString()));
    this.changes.publish({ kind: 'content', slug: before.Slug });
    if (before.Slug !== input.Slug) this.changes.publish({ kind: 'content', slug: input.Slug });
    return this.get(blockId);
  }

  async delete(blockId: number): Promise<void> {
    const before = await this.get(blockId);
    if (!(await this.blocks.delete(blockId))) throw new NotFoundError('Content block not found');
    this.changes.publish({ kind: 'content', slug: before.Slug });
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
