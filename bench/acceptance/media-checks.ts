/**
 * Issue 43's "Done when", from outside, on a site of its own (SQLite): uploads a JPEG carrying EXIF
 * GPS data and a PNG, fetches every variant (its width read from its own bytes, WebP where it says
 * so, no EXIF left, caching headers, 304 on revalidation); sends a renamed HTML file, an SVG, a 6 MB
 * file and a 20 000 × 20 000 PNG and gets 415/415/413/400 with nothing stored; puts an image in the
 * home banner and finds it on `/` with `srcset`; deletes an image still used (409) and an unused one
 * (404 afterwards); previews a script and an onclick; then db:export → db:import into PostgreSQL and
 * reads the same image bytes from a second server there.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp, { type PngOptions } from 'sharp';
import { addressSource, send, signIn } from '../lib/client.js';
import { createTemporaryDatabase } from '../lib/postgres.js';
import { SEED_ADMIN } from '../lib/seed.js';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { jsonOf, type TimedAnswer } from '../lib/timed-request.js';
import { check } from './check.js';
import { siteEnv } from './site-env.js';
import type { CheckResult, CheckSettings, StandaloneChecks } from './types.js';

const run = promisify(execFile);

interface Variant {
  Width: number;
  Url: string;
}
interface Media {
  _id: string;
  Url: string;
  Width: number;
  Height: number;
  Bytes: number;
  Type: string;
  Variants: Variant[];
}

/** A multipart/form-data body of one file in the field `file`, as a browser sends it. */
function formData(file: { name: string; type: string; data: Buffer }): { type: string; data: Buffer } {
  const boundary = `----acceptance${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
      `Content-Type: ${file.type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { type: `multipart/form-data; boundary=${boundary}`, data: Buffer.concat([head, file.data, tail]) };
}

/** A 2000 × 1500 JPEG with a GPS position in its EXIF, and a camera name. */
function jpegWithGps(): Promise<Buffer> {
  return sharp({
    create: { width: 2000, height: 1500, channels: 3, background: { r: 200, g: 120, b: 40 } },
  })
    .jpeg({ quality: 80 })
    .withExif({
      IFD0: { Make: 'AcceptanceCam', Model: 'GPS-1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '28/1 36/1 50/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '77/1 12/1 32/1',
      },
    })
    .toBuffer();
}

const pngOf = (width: number, height: number, options: PngOptions = {}) =>
  // sharp's own pixel limit would refuse to make the 400 MP one.
  sharp({
    create: { width, height, channels: 3, background: { r: 20, g: 90, b: 160 } },
    limitInputPixels: false,
  })
    .png(options)
    .toBuffer();

interface Site {
  server: ServerProcess;
  token: string;
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', pathname: string, json?: unknown): Promise<TimedAnswer>;
  upload(file: { name: string; type: string; data: Buffer }): Promise<TimedAnswer>;
  get(pathname: string, headers?: Record<string, string>): Promise<TimedAnswer>;
}

async function openSite(server: ServerProcess): Promise<Site> {
  const address = addressSource();
  const token = await signIn(server.url, SEED_ADMIN, address());
  return {
    server,
    token,
    call: (method, pathname, json) =>
      send(server.url, pathname, {
        method,
        address: address(),
        token,
        ...(json === undefined ? {} : { json }),
      }),
    upload: (file) =>
      send(server.url, '/api/media', { method: 'POST', address: address(), token, raw: formData(file) }),
    get: (pathname, headers = {}) => send(server.url, pathname, { address: address(), headers }),
  };
}

/** Every way an image is served: its Url and each variant's. */
const urlsOf = (media: Media) => [media.Url, ...media.Variants.map((variant) => variant.Url)];

async function variantChecks(site: Site, uploaded: Media[]): Promise<CheckResult[]> {
  const fetched: string[] = [];
  const problems: string[] = [];
  const revalidated: string[] = [];
  for (const media of uploaded) {
    const widths = media.Variants.map((variant) => variant.Width);
    const expected = [360, 720, 1280].filter((width) => width < media.Width);
    for (const width of expected)
      if (!widths.includes(width)) problems.push(`${media.Url}: no ${width} px variant (has ${widths})`);
    if (widths.some((width) => width > media.Width))
      problems.push(`${media.Url}: a variant wider than ${media.Width}`);
    if (!media.Variants.some((variant) => variant.Url.endsWith('.webp')))
      problems.push(`${media.Url}: no WebP variant`);
    for (const url of urlsOf(media)) {
      const answer = await site.get(url);
      const type = String(answer.headers['content-type']);
      if (answer.status !== 200) {
        problems.push(`${url} answered ${answer.status}`);
        continue;
      }
      const metadata = await sharp(answer.body).metadata();
      const variant = media.Variants.find((candidate) => candidate.Url === url);
      const width = variant?.Width ?? media.Width;
      if (metadata.width !== width) problems.push(`${url}: ${metadata.width} px wide, listed ${width}`);
      const format = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' }[
        metadata.format as string
      ];
      if (!type.startsWith(format ?? '?')) problems.push(`${url}: ${type} for ${metadata.format} bytes`);
      if (url.endsWith('.webp') && metadata.format !== 'webp') problems.push(`${url}: not WebP`);
      if (metadata.exif) problems.push(`${url}: EXIF left (${metadata.exif.length} B)`);
      const cache = String(answer.headers['cache-control']);
      const etag = answer.headers.etag;
      if (!/immutable/.test(cache) || !/max-age=\d{7,}/.test(cache))
        problems.push(`${url}: Cache-Control ${cache}`);
      if (!etag) problems.push(`${url}: no ETag`);
      else {
        const again = await site.get(url, { 'if-none-match': String(etag) });
        if (again.status === 304 && again.body.length === 0) revalidated.push(url);
        else problems.push(`${url}: revalidation answered ${again.status}`);
      }
      fetched.push(`${url.split('/').at(-1)} ${metadata.width}px ${metadata.format} ${answer.body.length} B`);
    }
  }
  return [
    {
      name: 'every variant: right width, WebP, no EXIF, immutable caching, 304 on revalidation',
      ok: problems.length === 0 && fetched.length > 0 && revalidated.length === fetched.length,
      detail: problems.length > 0 ? problems.join('; ') : `${fetched.length} fetched: ${fetched.join(', ')}`,
    },
  ];
}

async function refusalChecks(site: Site): Promise<CheckResult> {
  return check(
    'a renamed HTML file, an SVG, 6 MB, 20 000 × 20 000 px: 415, 415, 413, 400, nothing stored',
    async () => {
      const before = jsonOf<{ total?: number; data: Media[] }>(
        await site.call('GET', '/api/media'),
        'GET /api/media',
      );
      const svg =
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
      // One bit a pixel: 400 MP in a small file, as a decompression bomb is made.
      const bomb = await pngOf(20_000, 20_000, { palette: true, colours: 2, compressionLevel: 9 });
      const sent: Array<[string, number, { name: string; type: string; data: Buffer }]> = [
        [
          'HTML as .png',
          415,
          { name: 'banner.png', type: 'image/png', data: Buffer.from('<!doctype html><p>hi') },
        ],
        ['SVG', 415, { name: 'logo.svg', type: 'image/svg+xml', data: Buffer.from(svg) }],
        ['6 MB', 413, { name: 'big.jpg', type: 'image/jpeg', data: randomBytes(6 * 1024 * 1024) }],
        [`${bomb.length} B PNG of 400 MP`, 400, { name: 'bomb.png', type: 'image/png', data: bomb }],
      ];
      const seen: string[] = [];
      let ok = true;
      for (const [what, status, file] of sent) {
        const answer = await site.upload(file);
        const body = jsonOf<{ message?: string }>(answer, `POST /api/media (${what})`);
        ok &&= answer.status === status && typeof body.message === 'string' && body.message.length > 0;
        seen.push(`${what} → ${answer.status} "${body.message}"`);
      }
      const after = jsonOf<{ total?: number; data: Media[] }>(
        await site.call('GET', '/api/media'),
        'GET /api/media',
      );
      const stored = after.data.length - before.data.length;
      return { ok: ok && stored === 0, detail: `${seen.join('; ')}; ${stored} stored` };
    },
  );
}

async function bannerAndDeleteChecks(site: Site, jpeg: Media, png: Media): Promise<CheckResult[]> {
  const banner = check('an image in the home banner is on / with srcset, width and height', async () => {
    const webp = jpeg.Variants.filter((variant) => variant.Url.endsWith('.webp'));
    const srcset = webp.map((variant) => `${variant.Url} ${variant.Width}w`).join(', ');
    const content = `<p>Diwali timings</p><img src="${jpeg.Url}" srcset="${srcset}" sizes="100vw" width="${jpeg.Width}" height="${jpeg.Height}" alt="Diwali banner">`;
    const made = await site.call('POST', '/api/contentblocks', {
      Title: 'Home banner',
      Slug: 'home-banner',
      Content: content,
      isActive: true,
    });
    if (made.status !== 201) throw new Error(`saving the banner answered ${made.status}`);
    const home = (await site.get('/')).body.toString('utf8');
    const img =
      /<img[^>]*Diwali banner[^>]*>/.exec(home)?.[0] ?? /<img[^>]*\/media\/[^>]*>/.exec(home)?.[0] ?? '';
    const ok =
      img.includes(`srcset="${webp[0]?.Url}`) &&
      img.includes(`width="${jpeg.Width}"`) &&
      img.includes('height=');
    return { ok, detail: img === '' ? 'no image of the library on /' : img.slice(0, 400) };
  });
  const deletes = check(
    'deleting an image in use: 409 naming the block; an unused one: then 404',
    async () => {
      const used = await site.call('DELETE', `/api/media/${jpeg._id}`);
      const usedBody = jsonOf<{ message?: string }>(used, 'DELETE used');
      const unused = await site.call('DELETE', `/api/media/${png._id}`);
      const gone = await Promise.all(urlsOf(png).map((url) => site.get(url)));
      const stillThere = await site.get(jpeg.Url);
      const ok =
        used.status === 409 &&
        /Home banner/.test(usedBody.message ?? '') &&
        unused.status === 200 &&
        gone.every((answer) => answer.status === 404) &&
        stillThere.status === 200;
      return {
        ok,
        detail: `used → ${used.status} "${usedBody.message}"; unused → ${unused.status}, its ${gone.length} URLs → ${gone.map((a) => a.status)}; the used one still ${stillThere.status}`,
      };
    },
  );
  return [await banner, await deletes];
}

async function previewCheck(site: Site): Promise<CheckResult> {
  return check('a preview lists a script and an onclick as removed, and its html has neither', async () => {
    const answer = await site.call('POST', '/api/contentblocks/preview', {
      Content: '<p onclick="steal()">Results at 5 pm</p><script>steal()</script>',
    });
    const body = jsonOf<{ html: string; removed: Array<{ what: string; why: string }> }>(answer, 'preview');
    const listed = body.removed.map((item) => item.what).join(' | ');
    const ok =
      answer.status === 200 &&
      /script/i.test(listed) &&
      /onclick/i.test(listed) &&
      !/script|onclick|steal/i.test(body.html) &&
      body.html.includes('Results at 5 pm');
    return { ok, detail: `${answer.status}: html ${JSON.stringify(body.html)}; removed: ${listed}` };
  });
}

async function movedCheck(
  site: Site,
  dir: string,
  env: NodeJS.ProcessEnv,
  jpeg: Media,
): Promise<CheckResult> {
  return check(
    'db:export → db:import into PostgreSQL: a second server serves the same image bytes',
    async () => {
      const dump = path.join(dir, 'site.ndjson.gz');
      const tool = (command: string, databaseUrl: string) =>
        run(process.execPath, ['dist/server/cli/db-tools.js', command, dump], {
          env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
        });
      await tool('export', String(env.DATABASE_URL));
      const database = await createTemporaryDatabase('accept_media');
      let moved: ServerProcess | undefined;
      try {
        await tool('import', database.url);
        moved = await startServer({ port: await freePort(), env: { ...env, DATABASE_URL: database.url } });
        const second = await openSite(moved);
        const compared: string[] = [];
        let ok = true;
        for (const url of urlsOf(jpeg)) {
          const [here, there] = [await site.get(url), await second.get(url)];
          const same = here.status === 200 && there.status === 200 && here.body.equals(there.body);
          ok &&= same && here.headers.etag === there.headers.etag;
          compared.push(
            `${url.split('/').at(-1)} ${same ? 'same' : `DIFFERENT ${here.status}/${there.status}`}`,
          );
        }
        const listed = jsonOf<{ data: Media[] }>(
          await second.call('GET', '/api/media'),
          'GET /api/media there',
        );
        ok &&= listed.data.some((media) => media._id === jpeg._id);
        return { ok, detail: `${compared.join(', ')}; listed there: ${listed.data.length}` };
      } finally {
        await moved?.stop();
        await database.drop();
      }
    },
  );
}

export const mediaChecks: StandaloneChecks = async (settings: CheckSettings) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-media-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...siteEnv(settings, `sqlite:${path.join(dir, 'site.db')}`, port),
  };
  let server: ServerProcess | undefined;
  try {
    server = await startServer({ port, env });
    const site = await openSite(server);
    const uploads: Media[] = [];
    const uploadCheck = await check(
      'a JPEG with EXIF GPS and a PNG upload: 201 with their sizes',
      async () => {
        const files = [
          { name: 'diwali.jpg', type: 'image/jpeg', data: await jpegWithGps() },
          { name: 'notice.png', type: 'image/png', data: await pngOf(800, 600) },
        ];
        const seen: string[] = [];
        let ok = true;
        for (const file of files) {
          const answer = await site.upload(file);
          const body = jsonOf<{ data?: Media; message?: string }>(answer, `POST /api/media (${file.name})`);
          if (answer.status === 201 && body.data) uploads.push(body.data);
          const media = body.data;
          ok &&= answer.status === 201 && media !== undefined && media.Type === file.type;
          seen.push(
            media
              ? `${file.name} → ${answer.status} ${media.Width}×${media.Height} ${media.Type} ${media.Bytes} B, variants ${media.Variants.map((v) => `${v.Width}:${v.Url.split('.').at(-1)}`).join(' ')}`
              : `${file.name} → ${answer.status} ${body.message}`,
          );
        }
        ok &&= uploads[0]?.Width === 2000 && uploads[0]?.Height === 1500 && uploads[1]?.Width === 800;
        return { ok, detail: seen.join('; ') };
      },
    );
    const [jpeg, png] = uploads;
    if (!jpeg || !png) return [uploadCheck];
    return [
      uploadCheck,
      ...(await variantChecks(site, uploads)),
      await refusalChecks(site),
      ...(await bannerAndDeleteChecks(site, jpeg, png)),
      await previewCheck(site),
      await movedCheck(site, dir, env, jpeg),
    ];
  } catch (error) {
    return [
      {
        name: 'the media site',
        ok: false,
        detail: `${(error as Error).message}; the server's last output: ${server?.output().slice(-1500) ?? 'none'}`,
      },
    ];
  } finally {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
