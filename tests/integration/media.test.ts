import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MediaListAnswer, MediaRecord } from '../../src/shared/schemas/media.js';
import {
  call,
  createAgentWithToken,
  createContentBlock,
  expectStatus,
  type Failure,
  loginAdmin,
} from '../support/factories.js';
import { pngClaiming, postImage, solidImage, uploadImage } from '../support/media-uploads.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';

/** A photo as a phone takes it: EXIF with the place it was taken. */
function photoWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 1600, height: 900, channels: 3, background: '#aa6633' } })
    .jpeg()
    .withExif({
      IFD0: { Copyright: 'Someone', Make: 'PhoneMaker' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '18/1 31/1 0/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '73/1 51/1 0/1',
      },
    })
    .toBuffer();
}

const SHARP_FORMAT: Record<string, string> = {
  'image/webp': 'webp',
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
};

describe.each(DIALECTS)('the media library [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let admin: string;

  beforeAll(async () => {
    admin = await loginAdmin(t.app);
  });

  const list = async () =>
    expectStatus<MediaListAnswer>(await call(t.app, { url: '/api/media', token: admin }), 200);
  const fetchFile = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('refuses what is no image, too large or too many pixels, by content, and stores nothing', async () => {
    const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const big = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(6 * 1024 * 1024, 7)]);
    const cases = [
      {
        name: 'html renamed',
        bytes: html,
        file: 'cat.png',
        status: 415,
        message: /not a JPEG, PNG, WebP or GIF/,
      },
      {
        name: 'svg renamed',
        bytes: svg,
        file: 'logo.png',
        status: 415,
        message: /not a JPEG, PNG, WebP or GIF/,
      },
      { name: '6 MB', bytes: big, file: 'big.jpg', status: 413, message: /larger than 5 MB/ },
      {
        name: '20000 × 20000',
        bytes: pngClaiming(20_000, 20_000),
        file: 'bomb.png',
        status: 400,
        message: /more than 40 megapixels/,
      },
    ];
    for (const { name, bytes, file, status, message } of cases) {
      const response = await postImage(t.app, admin, bytes, file, 'image/png');
      expect({ name, status: response.statusCode }).toEqual({ name, status });
      const answer = response.json<Failure>();
      expect(answer.success).toBe(false);
      expect(answer.message).toMatch(message);
    }
    const answer = await list();
    expect(answer.data).toEqual([]);
    expect(answer.pagination.total).toBe(0);
    const stored = await t.database.db.selectFrom('media_files').select('path').execute();
    expect(stored).toEqual([]);
  });

  it('stores a JPEG with GPS in its EXIF as upright copies at each width, with no metadata left', async () => {
    const photo = await photoWithGps();
    // The test's own photo does carry what must go.
    expect((await sharp(photo).metadata()).exif?.includes(Buffer.from('PhoneMaker'))).toBe(true);
    const record = await uploadImage(t.app, admin, photo);
    expect(record).toMatchObject({ Width: 1600, Height: 900, Bytes: photo.length, Type: 'image/jpeg' });
    expect(record.Url).toBe(`/media/${record._id}/1600.jpg`);
    expect(record.Variants.map((variant) => [variant.Width, variant.Type])).toEqual([
      [360, 'image/webp'],
      [360, 'image/jpeg'],
      [720, 'image/webp'],
      [720, 'image/jpeg'],
      [1280, 'image/webp'],
      [1280, 'image/jpeg'],
      [1600, 'image/webp'],
      [1600, 'image/jpeg'],
    ]);
    for (const variant of [...record.Variants, { Url: record.Url, Width: 1600, Type: 'image/jpeg' }]) {
      const response = await fetchFile(variant.Url);
      expect({ url: variant.Url, status: response.statusCode }).toEqual({ url: variant.Url, status: 200 });
      expect(response.headers['content-type']).toBe(variant.Type);
      const metadata = await sharp(response.rawPayload).metadata();
      expect({
        url: variant.Url,
        width: metadata.width,
        format: metadata.format,
        exif: metadata.exif,
      }).toEqual({
        url: variant.Url,
        width: variant.Width,
        format: SHARP_FORMAT[variant.Type],
        exif: undefined,
      });
      expect(response.rawPayload.includes(Buffer.from('PhoneMaker'))).toBe(false);
    }
  });

  it('turns a photo upright by its EXIF orientation before taking the orientation out', async () => {
    const sideways = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#123456' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const record = await uploadImage(t.app, admin, sideways);
    expect([record.Width, record.Height]).toEqual([200, 400]);
    const stored = await sharp((await fetchFile(record.Url)).rawPayload).metadata();
    expect([stored.width, stored.height, stored.orientation]).toEqual([200, 400, undefined]);
  });

  it('never enlarges: a PNG narrower than a standard width gets the narrower ones and its own', async () => {
    const record = await uploadImage(t.app, admin, await solidImage(500, 300, 'png'));
    expect(record.Type).toBe('image/png');
    expect(record.Variants.map((variant) => `${variant.Width} ${variant.Type}`)).toEqual([
      '360 image/webp',
      '360 image/png',
      '500 image/webp',
      '500 image/png',
    ]);
    const png = await fetchFile(record.Url);
    expect(png.headers['content-type']).toBe('image/png');
    expect((await sharp(png.rawPayload).metadata()).width).toBe(500);
  });

  it('serves each copy for good, with an ETag and a 304 for a copy the client has', async () => {
    const record = await uploadImage(t.app, admin, await solidImage(800, 600, 'jpeg'));
    const first = await fetchFile(record.Url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetchFile(record.Url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const other = await fetchFile(record.Url, { 'if-none-match': '"something-else"' });
    expect(other.statusCode).toBe(200);
    for (const missing of [
      `/media/${record._id}/999.webp`,
      '/media/2147483000/360.webp',
      `/media/${record._id}/360.svg`,
      `/media/0${record._id}/360.webp`,
      '/media/x/360.webp',
    ]) {
      const response = await fetchFile(missing);
      expect({ missing, status: response.statusCode }).toEqual({ missing, status: 404 });
      expect(String(response.headers['cache-control'] ?? '')).not.toContain('immutable');
    }
  });

  it('lists newest first, paged, with the blocks using each image', async () => {
    const older = await uploadImage(t.app, admin, await solidImage(400, 300, 'gif'));
    const newer = await uploadImage(t.app, admin, await solidImage(400, 300, 'webp'));
    expect(newer.Variants.map((variant) => `${variant.Width} ${variant.Type}`)).toEqual([
      '360 image/webp',
      '400 image/webp',
    ]);
    const block = await createContentBlock(t.app, admin, {
      Content: `<p>Look</p><img src="${older.Url}" alt="older">`,
    });
    const page = expectStatus<MediaListAnswer>(
      await call(t.app, { url: '/api/media?page=1&limit=2', token: admin }),
      200,
    );
    expect(page.data.map((record) => record._id)).toEqual([newer._id, older._id]);
    expect(page.data[0]?.UsedBy).toEqual([]);
    expect(page.data[1]?.UsedBy).toEqual([{ _id: block._id, Title: block.Title }]);
    expect(page.pagination).toMatchObject({ page: 1, limit: 2 });
    expect(page.pagination.total).toBeGreaterThanOrEqual(4);
  });

  it('refuses to delete an image a block uses (409 naming it), deletes an unused one for good', async () => {
    const used = await uploadImage(t.app, admin, await solidImage(900, 500, 'jpeg'));
    const variant = used.Variants.find((one) => one.Width === 720 && one.Type === 'image/webp');
    const block = await createContentBlock(t.app, admin, {
      Title: 'Festival notice',
      Content: `<p>See</p><picture><source srcset="${variant?.Url} 720w" type="image/webp"><img src="/x.png" alt="a"></picture>`,
    });
    const refused = await call(t.app, { method: 'DELETE', url: `/api/media/${used._id}`, token: admin });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<Failure>().message).toContain('“Festival notice”');
    expect((await fetchFile(used.Url)).statusCode).toBe(200);

    await call(t.app, { method: 'DELETE', url: `/api/contentblocks/${block._id}`, token: admin });
    const deleted = await call(t.app, { method: 'DELETE', url: `/api/media/${used._id}`, token: admin });
    expect(deleted.statusCode).toBe(200);
    for (const url of [used.Url, ...used.Variants.map((one) => one.Url)])
      expect((await fetchFile(url)).statusCode).toBe(404);
    expect((await list()).data.map((record: MediaRecord) => record._id)).not.toContain(used._id);
    const again = await call(t.app, { method: 'DELETE', url: `/api/media/${used._id}`, token: admin });
    expect(again.statusCode).toBe(404);
    const trail = await t.database.db
      .selectFrom('activity_log')
      .select('action')
      .where('target_id', '=', Number(used._id))
      .where('action', 'like', 'media_%')
      .orderBy('activity_id')
      .execute();
    expect(trail.map((entry) => entry.action)).toEqual(['media_upload', 'media_delete']);
  });

  it('is for admins only: 401 without a token, 403 for an agent', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const image = await solidImage(50, 50, 'png');
    const record = await uploadImage(t.app, admin, image);
    expect((await postImage(t.app, null, image)).statusCode).toBe(401);
    expect((await postImage(t.app, agent.token, image)).statusCode).toBe(403);
    expect((await call(t.app, { url: '/api/media' })).statusCode).toBe(401);
    expect((await call(t.app, { url: '/api/media', token: agent.token })).statusCode).toBe(403);
    const asAgent = await call(t.app, {
      method: 'DELETE',
      url: `/api/media/${record._id}`,
      token: agent.token,
    });
    expect(asAgent.statusCode).toBe(403);
    // The copies themselves are public.
    expect((await fetchFile(record.Url)).statusCode).toBe(200);
  });
});
