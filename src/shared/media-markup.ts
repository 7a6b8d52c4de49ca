import type { MediaRecord } from './schemas/media.js';

/** The layout width content blocks are set in; wider screens still get the 768 px copy. */
export const MEDIA_IMAGE_SIZES = '(max-width: 768px) 100vw, 768px';

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The markup the editor inserts for a library image: WebP copies in srcset for the browser to pick from,
 * the original type at full width as src for browsers without srcset or WebP, and the intrinsic size so the
 * page does not shift while it loads.
 */
export function mediaImageHtml(
  record: Pick<MediaRecord, 'Url' | 'Width' | 'Height' | 'Variants'>,
  alt: string,
): string {
  const webp = record.Variants.filter((variant) => variant.Type === 'image/webp').sort(
    (a, b) => a.Width - b.Width,
  );
  const srcset = webp.map((variant) => `${variant.Url} ${variant.Width}w`).join(', ');
  const parts = [
    `src="${attribute(record.Url)}"`,
    srcset ? `srcset="${attribute(srcset)}"` : '',
    srcset ? `sizes="${MEDIA_IMAGE_SIZES}"` : '',
    `width="${record.Width}"`,
    `height="${record.Height}"`,
    `alt="${attribute(alt)}"`,
    'loading="lazy"',
  ];
  return `<img ${parts.filter(Boolean).join(' ')}>`;
}
