/**
 * Renders the site's icon (src/web/public/app-icon.svg) to every file that carries it, beside it: the
 * PNG sizes the app's manifest names, the touch icon phones put on a home screen, the favicon, and
 * the share image (Open Graph) link previews show. They are committed: they are small and change only
 * with the drawing, and a build that needs no image library cannot fail on one. Run after changing
 * the SVG: `npx tsx scripts/make-app-icons.ts`. The web app files' integration test fails when a file
 * no longer matches the drawing.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';

export const ICON_DIR = path.resolve(import.meta.dirname, '../src/web/public');
export const ICON_SVG = path.join(ICON_DIR, 'app-icon.svg');
/** Chromium's installability check asks for 192 and 512 px. */
export const ICON_SIZES = [192, 512] as const;
/** What iOS asks for (and fetches from this address by itself when a page names none). */
export const TOUCH_ICON = { file: path.join(ICON_DIR, 'apple-touch-icon.png'), size: 180 } as const;
/** Browsers ask for /favicon.ico whatever a page links to; 16 px for tabs, 32 and 48 px for the rest. */
export const FAVICON = { file: path.join(ICON_DIR, 'favicon.ico'), sizes: [16, 32, 48] } as const;
/** The share image: the size link previews (WhatsApp, Telegram, search results) crop least. */
export const SHARE_IMAGE = { file: path.join(ICON_DIR, 'og-image.png'), width: 1200, height: 630 } as const;
/** Where the icon sits in the share image: the test compares this square with the drawing. */
export const SHARE_IMAGE_ICON = { left: 96, top: 171, size: 288 } as const;

export const iconPngPath = (size: number) => path.join(ICON_DIR, `app-icon-${size}.png`);

/** The drawing at `size` px square, as RGBA pixels: what a PNG of that size must hold. */
export function renderIcon(size: number): Sharp {
  // The density makes librsvg draw at the target size rather than scale a 512 px bitmap.
  return sharp(fs.readFileSync(ICON_SVG), { density: (72 * size) / 512 }).resize(size, size);
}

/**
 * An .ico file of PNG images (the form every browser and Windows since Vista read): a 6-byte header,
 * a 16-byte entry per image (its size, 32 bits a pixel, where its bytes are), then the PNGs. Written
 * here rather than by a package: it is these few lines, and the packages that do it carry a CLI's
 * dependencies (png-to-ico 3 even ships @types/node 25 as a runtime dependency).
 */
export function icoOf(images: ReadonlyArray<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1: an icon (2 would be a cursor)
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  for (const [index, { size, png }] of images.entries()) {
    const entry = 6 + 16 * index;
    // 0 stands for 256 px.
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt8(0, entry + 2); // no palette
    header.writeUInt8(0, entry + 3);
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  }
  return Buffer.concat([header, ...images.map((image) => image.png)]);
}

/** The images of an .ico file written by icoOf: each entry's stated size and its PNG bytes. */
export function imagesOfIco(ico: Buffer): Array<{ size: number; png: Buffer }> {
  const count = ico.readUInt16LE(4);
  return Array.from({ length: count }, (_, index) => {
    const entry = 6 + 16 * index;
    const length = ico.readUInt32LE(entry + 8);
    const offset = ico.readUInt32LE(entry + 12);
    return { size: ico.readUInt8(entry) || 256, png: ico.subarray(offset, offset + length) };
  });
}

/**
 * The share image's drawing: the icon, the site's name in both of its languages and what it offers.
 * Type comes from the system's fonts (Noto, for Devanagari), so the test compares the icon alone.
 */
function shareImageSvg(): string {
  const { width, height } = SHARE_IMAGE;
  const { left, top, size } = SHARE_IMAGE_ICON;
  const icon = fs.readFileSync(ICON_SVG).toString('base64');
  const text = left + size + 64;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <rect width="${width}" height="${height}" fill="#0f172a"/>
  <rect y="${height - 24}" width="${width}" height="24" fill="#fcd34d"/>
  <image href="data:image/svg+xml;base64,${icon}" x="${left}" y="${top}" width="${size}" height="${size}"/>
  <g font-family="Noto Sans, DejaVu Sans, sans-serif">
    <text x="${text}" y="262" font-size="84" font-weight="800" fill="#fcd34d">Ghadi Results</text>
    <text x="${text}" y="352" font-family="Noto Sans Devanagari, sans-serif" font-size="60" font-weight="700" fill="#ffffff">घड़ी रिज़ल्ट</text>
    <text x="${text}" y="430" font-size="36" fill="#cbd5e1">Live results · Monthly charts</text>
    <text x="${text}" y="486" font-family="Noto Sans Devanagari, sans-serif" font-size="34" fill="#cbd5e1">लाइव रिज़ल्ट · मासिक चार्ट</text>
  </g>
</svg>`;
}

export function renderShareImage(): Sharp {
  return sharp(Buffer.from(shareImageSvg()));
}

async function write(file: string, bytes: Buffer | Promise<Buffer>) {
  fs.writeFileSync(file, await bytes);
  process.stdout.write(`${path.relative(process.cwd(), file)}: ${fs.statSync(file).size} bytes\n`);
}

async function main() {
  for (const size of ICON_SIZES) {
    await write(iconPngPath(size), renderIcon(size).png({ compressionLevel: 9, palette: true }).toBuffer());
  }
  await write(
    TOUCH_ICON.file,
    renderIcon(TOUCH_ICON.size).png({ compressionLevel: 9, palette: true }).toBuffer(),
  );
  const favicons = await Promise.all(
    FAVICON.sizes.map(async (size) => ({
      size,
      // Full colour: some readers of .ico files take 32-bit PNGs only.
      png: await renderIcon(size).ensureAlpha().png({ compressionLevel: 9 }).toBuffer(),
    })),
  );
  await write(FAVICON.file, icoOf(favicons));
  await write(SHARE_IMAGE.file, renderShareImage().png({ compressionLevel: 9, palette: true }).toBuffer());
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await main();
