import type { MediaRecord } from '../../shared/schemas/media.js';

/** The narrowest copy of an image, for a thumbnail: a grid of them should not load the originals. */
export function thumbnailOf(record: Pick<MediaRecord, 'Url' | 'Variants'>): string {
  const narrowest = [...record.Variants].sort((a, b) => a.Width - b.Width)[0];
  return narrowest?.Url ?? record.Url;
}

/** A file's size as people read it: bytes under one kilobyte, then KB, then MB with one decimal. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
}
