import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportDatabase } from '../../src/server/modules/backup/dump-export.js';
import { importDump } from '../../src/server/modules/backup/dump-import.js';
import { BANNER_SLUG } from '../../src/shared/home-content-blocks.js';
import { mediaImageHtml } from '../../src/shared/media-markup.js';
import type { ContentBlockRecord } from '../../src/shared/schemas/content-blocks.js';
import type { MediaRecord } from '../../src/shared/schemas/media.js';
import { readDump } from '../support/dumps.js';
import { call, createContentBlock, expectStatus, type Item, loginAdmin } from '../support/factories.js';
import { solidImage, uploadImage } from '../support/media-uploads.js';
import { DIALECTS, openTestDatabase, tempDir, useTestApp } from '../support/test-app.js';

describe.each(DIALECTS)('library images in blocks and dumps [%s]', (dialect) => {
  const t = useTestApp(dialect);
  const dir = tempDir();
  let admin: string;
  let image: MediaRecord;

  beforeAll(async () => {
    admin = await loginAdmin(t.app);
    image = await uploadImage(t.app, admin, await solidImage(1400, 700, 'jpeg'));
  });

  const publicBlock = async (slug: string) =>
    expectStatus<Item<ContentBlockRecord>>(await call(t.app, { url: `/api/contentblocks/slug/${slug}` }), 200)
      .data.Content;

  it('keeps the inserted markup of a library image, and serves it lazily below the banner', async () => {
    const markup = mediaImageHtml(image, 'A "festival" lamp');
    expect(markup).toContain(`src="${image.Url}"`);
    expect(markup).toContain(
      `srcset="/media/${image._id}/360.webp 360w, /media/${image._id}/720.webp 720w, /media/${image._id}/1280.webp 1280w, /media/${image._id}/1400.webp 1400w"`,
    );
    expect(markup).toContain('width="1400" height="700" alt="A &quot;festival&quot; lamp" loading="lazy"');

    const block = await createContentBlock(t.app, admin, { Content: `<p>Lamp</p>${markup}` });
    for (const kept of [
      'srcset="/media/',
      'sizes="(max-width: 768px) 100vw, 768px"',
      'width="1400"',
      'height="700"',
    ])
      expect(block.Content).toContain(kept);
    const served = await publicBlock(block.Slug);
    expect(served).toContain('srcset="/media/');
    expect(served).toContain('loading="lazy"');

    const plain = await createContentBlock(t.app, admin, { Content: `<img src="${image.Url}" alt="x">` });
    expect(plain.Content).not.toContain('loading');
    expect(await publicBlock(plain.Slug)).toContain('loading="lazy"');

    await createContentBlock(t.app, admin, { Slug: BANNER_SLUG, Content: `<p>Top</p>${markup}` });
    const banner = await publicBlock(BANNER_SLUG);
    expect(banner).toContain('srcset="/media/');
    expect(banner).not.toContain('loading=');
  });

  it('drops a srcset that names any image from elsewhere, keeps the rest of the image', async () => {
    const block = await createContentBlock(t.app, admin, {
      Content: `<picture><source srcset="https://evil.example/a.webp 1x" type="image/webp"><img src="${image.Url}" srcset="${image.Url} 1400w, //evil.example/b.jpg 2x" width="10" alt="a"></picture>`,
    });
    expect(block.Content).not.toContain('evil');
    expect(block.Content).not.toContain('srcset');
    expect(block.Content).toContain('<source type="image/webp" />');
    expect(block.Content).toContain(`src="${image.Url}"`);
  });

  it('carries the images through db:export and db:import, byte for byte', async () => {
    const file = path.join(dir(), 'media.ndjson.gz');
    await exportDatabase(t.database, file, { pageSize: 3 });
    const dump = readDump(file);
    const stored = await t.database.db
      .selectFrom('media_files')
      .select(['path', 'data'])
      .orderBy('path')
      .execute();
    expect(dump.rows.media_files?.length).toBe(stored.length);
    expect(typeof dump.rows.media_files?.[0]?.data).toBe('string');

    const target = await openTestDatabase(dialect, path.join(dir(), 'target.db'));
    try {
      await importDump(target.database, file);
      const copied = await target.database.db
        .selectFrom('media_files')
        .select(['path', 'data'])
        .orderBy('path')
        .execute();
      expect(copied.map((row) => row.path)).toEqual(stored.map((row) => row.path));
      for (const [index, row] of copied.entries())
        expect(Buffer.compare(Buffer.from(row.data), Buffer.from(stored[index]?.data ?? []))).toBe(0);
      const media = await target.database.db.selectFrom('media').selectAll().execute();
      expect(media).toHaveLength(1);
      expect(media[0]).toMatchObject({ width: 1400, height: 700, type: 'image/jpeg' });
    } finally {
      await target.database.close();
      await target.dropDatabase();
    }
  });
});
