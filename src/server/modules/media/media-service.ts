import type { Pagination } from '../../../shared/schemas/common.js';
import {
  MEDIA_FILE_ADDRESS,
  type MediaListQuery,
  type MediaRecord,
  type MediaType,
  type MediaUser,
  type MediaVariant,
} from '../../../shared/schemas/media.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { recordIds } from '../../lib/record-ids.js';
import type { ActivityRecorder, Actor } from '../activity/activity-recorder.js';
import { isMediaType, MEDIA_EXTENSIONS, prepareImage } from './media-images.js';
import {
  type BlockText,
  type MediaFileBody,
  type MediaFileEntry,
  type MediaRepository,
  type MediaRow,
  mediaPrefix,
} from './media-repository.js';

const MEDIA_ADDRESS = /\/media\/(\d{1,10})\//g;

function typeOf(value: string): MediaType {
  // Only the upload writes these columns, with one of the types.
  return isMediaType(value) ? value : 'image/jpeg';
}

function fileUrl(path: string): string {
  return `/media/${path}`;
}

/** Narrowest first; at each width WebP before the original's type. */
function variantsOf(files: MediaFileEntry[]): MediaVariant[] {
  return files
    .map((file) => ({ Width: file.width, Url: fileUrl(file.path), Type: typeOf(file.type) }))
    .sort((a, b) => a.Width - b.Width || Number(b.Type === 'image/webp') - Number(a.Type === 'image/webp'));
}

function toRecord(row: MediaRow, files: MediaFileEntry[], usedBy: MediaUser[]): MediaRecord {
  const type = typeOf(row.type);
  return {
    ...recordIds(row.media_id),
    Url: fileUrl(`${row.media_id}/${row.width}.${MEDIA_EXTENSIONS[type]}`),
    Width: row.width,
    Height: row.height,
    Bytes: row.bytes,
    Type: type,
    Variants: variantsOf(files),
    UsedBy: usedBy,
    CreatedAt: row.created_at,
  };
}

/** Which blocks hold an address of which image, read from their Content. */
function usersByImage(blocks: BlockText[]): Map<number, MediaUser[]> {
  const users = new Map<number, MediaUser[]>();
  for (const block of blocks) {
    const ids = new Set([...block.content.matchAll(MEDIA_ADDRESS)].map((match) => Number(match[1])));
    for (const id of ids) {
      const list = users.get(id) ?? [];
      list.push({ _id: String(block.block_id), Title: block.title });
      users.set(id, list);
    }
  }
  return users;
}

/** "12/720.webp" for an address's parts, or null when they cannot name a copy. */
export function mediaFilePath(id: string, file: string): string | null {
  if (!MEDIA_FILE_ADDRESS.id.test(id) || !MEDIA_FILE_ADDRESS.file.test(file)) return null;
  return `${id}/${file}`;
}

/**
 * The media library: uploads checked and turned into their copies before anything is written, stored
 * in one transaction with the activity entry; served by address; deleted only when no block uses them.
 */
export class MediaService {
  constructor(
    private readonly media: MediaRepository,
    private readonly activity: ActivityRecorder,
  ) {}

  async upload(actor: Actor, input: Buffer): Promise<MediaRecord> {
    const image = await prepareImage(input);
    const mediaId = await this.media.withTransaction(async (trx) => {
      const id = await this.media.insert(
        trx,
        { type: image.type, width: image.width, height: image.height, bytes: image.bytes },
        image.copies.map((copy) => ({
          name: `${copy.width}.${MEDIA_EXTENSIONS[copy.type]}`,
          width: copy.width,
          type: copy.type,
          etag: copy.etag,
          data: copy.data,
        })),
        new Date().toISOString(),
      );
      await this.activity.record(trx, actor, {
        action: 'media_upload',
        target: { id, name: `Image ${id}` },
        summary: `${image.type}, ${image.width}×${image.height}, ${image.bytes} bytes`,
      });
      return id;
    });
    const row = await this.media.findById(mediaId);
    if (!row) throw new NotFoundError('Image not found');
    return toRecord(row, await this.media.filesOf([mediaId]), []);
  }

  async list({ page, limit }: MediaListQuery): Promise<{ data: MediaRecord[]; pagination: Pagination }> {
    const [rows, total, blocks] = await Promise.all([
      this.media.page((page - 1) * limit, limit),
      this.media.count(),
      this.media.blocksWithMedia(),
    ]);
    const files = await this.media.filesOf(rows.map((row) => row.media_id));
    const users = usersByImage(blocks);
    return {
      data: rows.map((row) =>
        toRecord(
          row,
          files.filter((file) => file.media_id === row.media_id),
          users.get(row.media_id) ?? [],
        ),
      ),
      pagination: { page, limit, total, totalPages: Math.max(1, Math.ceil(total / limit)) },
    };
  }

  /** One stored copy by its address below /media/, or undefined. */
  file(path: string): Promise<MediaFileBody | undefined> {
    return this.media.findFile(path);
  }

  /** Refused (409, naming them) while a block's Content holds one of the image's addresses. */
  async delete(actor: Actor, mediaId: number): Promise<void> {
    await this.media.withTransaction(async (trx) => {
      const users = await this.media.blocksUsing(trx, mediaId);
      if (users.length > 0) {
        const names = users.map((block) => `“${block.title}”`).join(', ');
        throw new ConflictError(
          `The image is used by ${users.length === 1 ? 'the content block' : 'the content blocks'} ${names}: remove it from ${users.length === 1 ? 'that block' : 'those blocks'} first`,
        );
      }
      const before = await this.media.delete(trx, mediaId);
      if (!before) throw new NotFoundError('Image not found');
      await this.activity.record(trx, actor, {
        action: 'media_delete',
        target: { id: mediaId, name: `Image ${mediaId}` },
        summary: `${before.type}, ${before.width}×${before.height} (${mediaPrefix(mediaId)})`,
      });
    });
  }
}
