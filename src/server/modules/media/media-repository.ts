import type { Selectable } from 'kysely';
import { countRows, type Database, type Executor } from '../../db/database.js';
import type { MediaFilesTable, MediaTable } from '../../db/schema.js';

export type MediaRow = Selectable<MediaTable>;
/** A copy as lists show it: never its bytes. */
export type MediaFileEntry = Pick<Selectable<MediaFilesTable>, 'path' | 'media_id' | 'width' | 'type'>;
/** A copy as it is served. */
export type MediaFileBody = Pick<Selectable<MediaFilesTable>, 'type' | 'etag' | 'data'>;

export interface NewMedia {
  type: string;
  width: number;
  height: number;
  bytes: number;
}

export interface NewMediaFile {
  /** Its address below /media/{id}/ ("720.webp"). */
  name: string;
  width: number;
  type: string;
  etag: string;
  data: Buffer;
}

/** A block as the library checks it for images: its Content is searched for their addresses. */
export interface BlockText {
  block_id: number;
  title: string;
  content: string;
}

/** The address prefix every copy of an image shares, and that a block using it contains. */
export function mediaPrefix(mediaId: number): string {
  return `/media/${mediaId}/`;
}

export class MediaRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  withTransaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The image and all its copies; the copies' paths are made of the id the insert gets. */
  async insert(trx: Executor, media: NewMedia, files: NewMediaFile[], now: string): Promise<number> {
    const { media_id: mediaId } = await trx
      .insertInto('media')
      .values({ ...media, created_at: now })
      .returning('media_id')
      .executeTakeFirstOrThrow();
    // One copy per statement: a batch of every copy would be one statement of several megabytes.
    for (const file of files) {
      await trx
        .insertInto('media_files')
        .values({
          path: `${mediaId}/${file.name}`,
          media_id: mediaId,
          width: file.width,
          type: file.type,
          etag: file.etag,
          data: file.data,
        })
        .execute();
    }
    return mediaId;
  }

  /** A page of images, newest first. */
  page(offset: number, limit: number): Promise<MediaRow[]> {
    return this.db
      .selectFrom('media')
      .selectAll()
      .orderBy('media_id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
  }

  count(): Promise<number> {
    return countRows(this.db.selectFrom('media'));
  }

  findById(mediaId: number): Promise<MediaRow | undefined> {
    return this.db.selectFrom('media').selectAll().where('media_id', '=', mediaId).executeTakeFirst();
  }

  /** The copies of these images, without their bytes. */
  async filesOf(mediaIds: number[]): Promise<MediaFileEntry[]> {
    if (mediaIds.length === 0) return [];
    return this.db
      .selectFrom('media_files')
      .select(['path', 'media_id', 'width', 'type'])
      .where('media_id', 'in', mediaIds)
      .execute();
  }

  /** One copy by its address below /media/: a read by primary key. */
  findFile(path: string): Promise<MediaFileBody | undefined> {
    return this.db
      .selectFrom('media_files')
      .select(['type', 'etag', 'data'])
      .where('path', '=', path)
      .executeTakeFirst();
  }

  /** Every block whose Content holds an address of one of the library's images (a site has a handful). */
  blocksWithMedia(): Promise<BlockText[]> {
    return this.db
      .selectFrom('content_blocks')
      .select(['block_id', 'title', 'content'])
      .where('content', 'like', '%/media/%')
      .orderBy('title')
      .orderBy('block_id')
      .execute();
  }

  /** The blocks using this image, as the delete's transaction sees them. */
  blocksUsing(trx: Executor, mediaId: number): Promise<Array<Pick<BlockText, 'block_id' | 'title'>>> {
    return trx
      .selectFrom('content_blocks')
      .select(['block_id', 'title'])
      .where('content', 'like', `%${mediaPrefix(mediaId)}%`)
      .orderBy('title')
      .orderBy('block_id')
      .execute();
  }

  /** The image as it was (its copies go with it), or undefined when there was none. */
  delete(trx: Executor, mediaId: number): Promise<MediaRow | undefined> {
    return trx.deleteFrom('media').where('media_id', '=', mediaId).returningAll().executeTakeFirst();
  }
}
