import { createHash } from 'node:crypto';
import sharp from 'sharp';
import {
  MEDIA_MAX_PIXELS,
  MEDIA_TYPES,
  MEDIA_VARIANT_WIDTHS,
  type MediaType,
} from '../../../shared/schemas/media.js';
import { BadRequestError, UnsupportedMediaTypeError } from '../../errors.js';

/** The extension a stored copy's address ends in, by type. */
export const MEDIA_EXTENSIONS: Record<MediaType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** One copy of an upload, ready to store. */
export interface ImageCopy {
  width: number;
  type: MediaType;
  data: Buffer;
  etag: string;
}

/** An upload made ready to store: what it is and every copy of it. */
export interface PreparedImage {
  type: MediaType;
  /** As shown (after the EXIF orientation is applied). */
  width: number;
  height: number;
  bytes: number;
  copies: ImageCopy[];
}

const NOT_AN_IMAGE = 'The file is not a JPEG, PNG, WebP or GIF image';

/** The type the first bytes say, whatever the file was called or declared as. */
export function sniffImageType(bytes: Buffer): MediaType | null {
  const starts = (signature: number[], at = 0) =>
    signature.every((byte, index) => bytes[at + index] === byte);
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
    return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}

/** What sharp calls each type: the header must agree with the signature. */
const SHARP_FORMATS: Record<MediaType, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** A strong validator of a copy's bytes (quoted, as the header carries it). */
export function etagOf(data: Buffer): string {
  return `"${createHash('sha256').update(data).digest('base64url').slice(0, 32)}"`;
}

/** The widths stored: those of the standard ones narrower than the original, and the original's own. */
export function variantWidths(width: number): number[] {
  return [...MEDIA_VARIANT_WIDTHS.filter((standard) => standard < width), width];
}

/**
 * Every decode is capped at the pixel limit (libvips refuses a larger image from its header, before
 * it allocates anything); only the first frame of an animation is read.
 */
function decoder(input: Buffer) {
  return sharp(input, { limitInputPixels: MEDIA_MAX_PIXELS, failOn: 'error' });
}

type Pipeline = ReturnType<typeof sharp>;

function encode(pipeline: Pipeline, type: MediaType): Pipeline {
  switch (type) {
    case 'image/webp':
      return pipeline.webp({ quality: 80 });
    case 'image/jpeg':
      return pipeline.jpeg({ quality: 82, mozjpeg: true });
    case 'image/png':
      return pipeline.png({ compressionLevel: 9 });
    case 'image/gif':
      return pipeline.gif();
  }
}

function readFailure(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message))
    return new BadRequestError(`The image has more than ${MEDIA_MAX_PIXELS / 1_000_000} megapixels`);
  return new UnsupportedMediaTypeError(`${NOT_AN_IMAGE}, or it is damaged`);
}

/**
 * Checks an upload by its content and makes its copies: each width, as WebP and (unless it is WebP)
 * in the original's type, turned upright by its EXIF orientation and re-encoded, so that no metadata
 * (EXIF, GPS, comments) survives in any of them, the full-width original included.
 */
export async function prepareImage(input: Buffer): Promise<PreparedImage> {
  const type = sniffImageType(input);
  if (!type) throw new UnsupportedMediaTypeError(NOT_AN_IMAGE);
  const metadata = await decoder(input)
    .metadata()
    .catch((error: unknown) => {
      throw readFailure(error);
    });
  if (metadata.format !== SHARP_FORMATS[type] || !metadata.width || !metadata.height)
    throw new UnsupportedMediaTypeError(NOT_AN_IMAGE);
  const frameHeight = metadata.pageHeight ?? metadata.height;
  if (metadata.width * frameHeight > MEDIA_MAX_PIXELS)
    throw new BadRequestError(`The image has more than ${MEDIA_MAX_PIXELS / 1_000_000} megapixels`);
  const sideways = (metadata.orientation ?? 1) >= 5;
  const width = sideways ? frameHeight : metadata.width;
  const height = sideways ? metadata.width : frameHeight;

  const types: MediaType[] = type === 'image/webp' ? ['image/webp'] : ['image/webp', type];
  const copies: ImageCopy[] = [];
  try {
    for (const copyWidth of variantWidths(width)) {
      for (const copyType of types) {
        const resized = decoder(input).rotate().resize({ width: copyWidth, withoutEnlargement: true });
        const data = await encode(resized, copyType).toBuffer();
        copies.push({ width: copyWidth, type: copyType, data, etag: etagOf(data) });
      }
    }
  } catch (error) {
    throw readFailure(error);
  }
  return { type, width, height, bytes: input.length, copies };
}

export function isMediaType(value: string): value is MediaType {
  return (MEDIA_TYPES as readonly string[]).includes(value);
}
