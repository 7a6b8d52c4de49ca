import { BANNER_SLUG } from '../../../shared/home-content-blocks.js';
import type { ContentBlockInput, ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import { type Executor, isUniqueViolation } from '../../db/database.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import { recordIds } from '../../lib/record-ids.js';
import { publicContentHtml, sanitizeContentHtml } from '../../lib/sanitize-html.js';
import type { ActivityRecorder, Actor, Recorded } from '../activity/activity-recorder.js';
import { changedFields, fieldValues, summaryOf } from '../activity/activity-summary.js';
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

/** A block's fields as the activity trail names them: the API's. */
function shownFields(fields: ContentBlockFields) {
  return {
    Title: fields.title,
    Slug: fields.slug,
    Content: fields.content,
    isActive: fields.is_active === 1,
  };
}

/** A write of a block: its id, the entry recording it, and the public slugs it changed. */
interface BlockWrite extends Recorded<number> {
  slugs: string[];
}

export class ContentBlocksService {
  constructor(
    private readonly blocks: ContentBlocksRepository,
    private readonly changes: ChangeLog,
    private readonly activity: ActivityRecorder,
  ) {}

  async list(): Promise<ContentBlockRecord[]> {
    return (await this.blocks.list()).map(toRecord);
  }

  /** The active blocks' slugs, lower-cased as stored. */
  activeSlugs(): Promise<string[]> {
    return this.blocks.activeSlugs();
  }

  /**
   * An active block as the public pages show it. Sanitized again on the way out: a block saved under
   * older, looser rules (classes, any colour) is served by today's. The public site keeps the answer,
   * so this runs once per change of the block, not per visit. Its images load lazily, but for the
   * home banner's, which are at the top of the page.
   */
  async findActiveBySlug(slug: string): Promise<ContentBlockRecord> {
    const row = await this.blocks.findActiveBySlug(slug.toLowerCase());
    if (!row) throw new NotFoundError('Content block not found');
    return { ...toRecord(row), Content: publicContentHtml(row.content, row.slug === BANNER_SLUG) };
  }

  async create(actor: Actor, input: ContentBlockInput): Promise<ContentBlockRecord> {
    const fields = toFields(input);
    const blockId = await this.write(actor, async (trx) => {
      const id = await this.blocks.insert(trx, fields, new Date().toISOString());
      const summary = summaryOf(fieldValues(shownFields(fields)));
      return {
        value: id,
        activity: { action: 'content_create', target: { id, name: fields.title }, summary },
        slugs: [fields.slug],
      };
    });
    return this.get(blockId);
  }

  async update(actor: Actor, blockId: number, input: ContentBlockInput): Promise<ContentBlockRecord> {
    const fields = toFields(input);
    await this.write(actor, async (trx) => {
      const before = await this.blocks.findToChange(trx, blockId);
      if (!before) throw new NotFoundError('Content block not found');
      await this.blocks.update(trx, blockId, fields, new Date().toISOString());
      const summary = summaryOf(changedFields(shownFields(before), shownFields(fields)));
      return {
        value: blockId,
        activity: { action: 'content_update', target: { id: blockId, name: fields.title }, summary },
        // A new slug changes two public answers: the old one disappears, the new one appears.
        slugs: before.slug === fields.slug ? [fields.slug] : [before.slug, fields.slug],
      };
    });
    return this.get(blockId);
  }

  async delete(actor: Actor, blockId: number): Promise<void> {
    await this.write(actor, async (trx) => {
      const before = await this.blocks.delete(trx, blockId);
      if (!before) throw new NotFoundError('Content block not found');
      const summary = summaryOf(fieldValues(shownFields(before)));
      return {
        value: blockId,
        activity: { action: 'content_delete', target: { id: blockId, name: before.title }, summary },
        slugs: [before.slug],
      };
    });
  }

  private async get(blockId: number): Promise<ContentBlockRecord> {
    const row = await this.blocks.findById(blockId);
    if (!row) throw new NotFoundError('Content block not found');
    return toRecord(row);
  }

  /**
   * Every change of a block goes through here: one transaction with its changes (for the public
   * site) and the activity entry that records it.
   */
  private async write(actor: Actor, work: (trx: Executor) => Promise<BlockWrite>): Promise<number> {
    try {
      const done = await this.changes.write(
        async (trx) => {
          const written = await work(trx);
          await this.activity.record(trx, actor, written.activity);
          return written;
        },
        ({ slugs }) => slugs.map((slug) => ({ kind: 'content' as const, slug })),
      );
      return done.value;
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError('Slug already exists');
      throw error;
    }
  }
}
