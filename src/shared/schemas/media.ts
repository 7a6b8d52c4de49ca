import { z } from 'zod';
import { pagination } from './common.js';
import { pageNumber, pageSize } from './results.js';

/** The image types the library takes, recognised from the bytes; the stored original keeps its type. */
export const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** An upload's largest size; the multipart parser stops reading past it. */
export const MEDIA_MAX_BYTES = 5 * 1024 * 1024;
/** An upload's largest pixel count, checked from the header before anything is decoded. */
export const MEDIA_MAX_PIXELS = 40_000_000;
/** The widths the resized copies are made at; only those narrower than the original, plus the original's own. */
export const MEDIA_VARIANT_WIDTHS = [360, 720, 1280] as const;

export const MEDIA_PAGE_SIZE = 24;
export const MAX_MEDIA_LIMIT = 100;

/** One stored copy: WebP for browsers that take it, and the original's type for those that don't. */
export const mediaVariant = z.object({
  Width: z.number().int(),
  Url: z.string(),
  Type: z.enum(MEDIA_TYPES),
});
export type MediaVariant = z.infer<typeof mediaVariant>;

/** A content block whose Content points at the image (its Url or one of its variants). */
export const mediaUser = z.object({ _id: z.string(), Title: z.string() });
export type MediaUser = z.infer<typeof mediaUser>;

export const mediaRecord = z.object({
  _id: z.string(),
  id: z.string(),
  /** The original-type copy at the original's width (re-encoded, metadata removed). */
  Url: z.string(),
  Width: z.number().int(),
  Height: z.number().int(),
  /** The uploaded file's size. */
  Bytes: z.number().int(),
  Type: z.enum(MEDIA_TYPES),
  /** Narrowest first; every width twice (WebP, then the original's type) unless the original is WebP. */
  Variants: z.array(mediaVariant),
  UsedBy: z.array(mediaUser),
  CreatedAt: z.string(),
});
export type MediaRecord = z.infer<typeof mediaRecord>;

export const mediaUploadAnswer = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: mediaRecord,
});
export type MediaUploadAnswer = z.infer<typeof mediaUploadAnswer>;

/** GET /api/media: newest first. */
export const mediaListQuery = z.object({
  page: pageNumber.default(1),
  limit: pageSize(MAX_MEDIA_LIMIT).default(MEDIA_PAGE_SIZE),
});
export type MediaListQuery = z.infer<typeof mediaListQuery>;

export const mediaListAnswer = z.object({
  success: z.literal(true),
  data: z.array(mediaRecord),
  pagination,
});
export type MediaListAnswer = z.infer<typeof mediaListAnswer>;

/** GET /media/:id/:file, where file is `{width}.{webp|jpg|png|gif}`; any other spelling is simply not found. */
export const mediaFileParams = z.object({ id: z.string().max(20), file: z.string().max(40) });
export type MediaFileParams = z.infer<typeof mediaFileParams>;

/** The addresses a stored copy can have: an image id, then a width and an extension. */
export const MEDIA_FILE_ADDRESS = { id: /^[1-9]\d{0,9}$/, file: /^[1-9]\d{0,4}\.(?:webp|jpg|png|gif)$/ };
