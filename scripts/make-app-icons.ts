/**
 * Renders the web app's icon (src/web/public/app-icon.svg) to the PNG sizes its manifest names, beside
 * it. The PNGs are committed: they are small and change only with the drawing, and a build that needs
 * no image library cannot fail on one. Run after changing the SVG: `npx tsx scripts/make-app-icons.ts`.
 * The web app files' integration test fails when a PNG no longer matches the drawing.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';

export const ICON_DIR = path.resolve(import.meta.dirname, '../src/web/public');
export const ICON_SVG = path.join(ICON_DIR, 'app-icon.svg');
/** Chromium's installability check asks for 192 and 512 px. */
export const ICON_SIZES = [192, 512] as const;

export const iconPngPath = (size: number) => path.join(ICON_DIR, `app-icon-${size}.png`);

/** The drawing at `size` px square, as RGBA pixels: what a PNG of that size must hold. */
export function renderIcon(size: number): Sharp {
  // The density makes librsvg draw at the target size rather than scale a 512 px bitmap.
  return sharp(fs.readFileSync(ICON_SVG), { density: (72 * size) / 512 }).resize(size, size);
}

async function main() {
  for (const size of ICON_SIZES) {
    const file = iconPngPath(size);
    await renderIcon(size).png({ compressionLevel: 9, palette: true }).toFile(file);
    process.stdout.write(`${path.relative(process.cwd(), file)}: ${fs.statSync(file).size} bytes\n`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await main();
