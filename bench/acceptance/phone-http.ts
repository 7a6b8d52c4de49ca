/**
 * The phone group's checks over HTTP alone: the icons are images, an address no route serves is a
 * 404 page with the site's header in its language, and a hyphenated name reaches its ghadi (301 to
 * the spec's address, in both languages and for the year charts).
 */
import { SITE_NAME } from '../../src/shared/site.js';
import { check } from './check.js';
import type { PhoneSite } from './phone-site.js';
import type { CheckResult } from './types.js';

const ICO = Buffer.from([0, 0, 1, 0]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

export function iconsCheck(site: PhoneSite): Promise<CheckResult> {
  return check('/favicon.ico is an image (ICO), and the touch icon and share image are PNGs', async () => {
    const seen: string[] = [];
    let ok = true;
    for (const [path, magic] of [
      ['/favicon.ico', ICO],
      ['/apple-touch-icon.png', PNG],
      ['/og-image.png', PNG],
    ] as const) {
      const answer = await site.call(path);
      const type = String(answer.headers['content-type']);
      const right =
        answer.status === 200 && type.startsWith('image/') && answer.body.subarray(0, 4).equals(magic);
      ok &&= right;
      // An ICO names how many images it holds in bytes 4-5.
      const images = magic === ICO ? `, ${answer.body.readUInt16LE(4)} sizes` : '';
      seen.push(
        `${path} ${answer.status} ${type} ${answer.body.length} B${images}${right ? '' : ' (WRONG)'}`,
      );
    }
    const home = (await site.call('/')).body.toString();
    const named = ['rel="icon"', 'og:image', 'twitter:card'].filter((tag) => home.includes(tag));
    return {
      ok: ok && named.length === 3,
      detail: `${seen.join('; ')}; the home page names ${named.join(', ')}`,
    };
  });
}

export function notFoundCheck(site: PhoneSite): Promise<CheckResult> {
  return check('an unknown address answers 404 with the site’s header, in its language', async () => {
    const seen: string[] = [];
    let ok = true;
    for (const [path, language] of [
      ['/nope', 'en'],
      ['/satta-results/a/b/c', 'en'],
      ['/hi/nope', 'hi'],
    ] as const) {
      const answer = await site.call(path);
      const html = answer.body.toString();
      const header = /<header[\s\S]*?<\/header>/.exec(html)?.[0] ?? '';
      const right =
        answer.status === 404 &&
        String(answer.headers['content-type']).startsWith('text/html') &&
        html.includes(`<html lang="${language}"`) &&
        header.includes(SITE_NAME) &&
        html.includes('<footer');
      ok &&= right;
      seen.push(
        `${path} ${answer.status}, lang ${language}, header ${header ? 'with the site name' : 'missing'}${right ? '' : ' (WRONG)'}`,
      );
    }
    const api = await site.call('/api/nope');
    const json = String(api.headers['content-type']).startsWith('application/json');
    return {
      ok: ok && api.status === 404 && json,
      detail: `${seen.join('; ')}; /api/nope ${api.status} JSON: ${json}`,
    };
  });
}

export function hyphenCheck(site: PhoneSite): Promise<CheckResult> {
  return check('/satta-results/{hyphenated-name} reaches the ghadi (301 to the spec’s address)', async () => {
    const year = site.today.slice(0, 4);
    const seen: string[] = [];
    let ok = true;
    for (const [typed, canonical] of [
      ['/satta-results/delhi-bazar', '/satta-results/delhi%20bazar'],
      ['/satta-results/Shiri-Ganesh', '/satta-results/shiri%20ganesh'],
      ['/hi/satta-results/delhi-bazar', '/hi/satta-results/delhi%20bazar'],
      [`/satta-results/delhi-bazar/${year}`, `/satta-results/delhi%20bazar/${year}`],
    ] as const) {
      const moved = await site.call(typed);
      const target = await site.call(canonical);
      const heading =
        /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(target.body.toString())?.[1]?.replace(/<[^>]+>/g, '') ?? '';
      const right = moved.status === 301 && moved.headers.location === canonical && target.status === 200;
      ok &&= right;
      seen.push(
        `${typed} ${moved.status} → ${moved.headers.location} ${target.status} "${heading}"${right ? '' : ' (WRONG)'}`,
      );
    }
    const api = await site.call('/api/results/delhi-bazar');
    ok &&= api.status === 200;
    return { ok, detail: `${seen.join('; ')}; GET /api/results/delhi-bazar ${api.status}` };
  });
}
