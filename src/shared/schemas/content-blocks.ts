import { z } from 'zod';
import { requiredText } from './common.js';

export const contentBlockInput = z.object({
  Title: requiredText(200),
  Slug: requiredText(100)
    .toLowerCase()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Use lower-case letters and digits separated by dashes'),
  Content: requiredText(500_000),
  isActive: z.boolean('Must be true or false').default(true),
});
export type ContentBlockInput = z.infer<typeof contentBlockInput>;

/** POST /api/contentblocks/preview: Content as a block would be saved with it. */
export const contentPreviewInput = z.object({ Content: contentBlockInput.shape.Content });
export type ContentPreviewInput = z.infer<typeof contentPreviewInput>;

/** One thing the sanitizer took out: what it was (shortened) and why it goes. */
export const contentRemoval = z.object({ what: z.string(), why: z.string() });
export type ContentRemoval = z.infer<typeof contentRemoval>;

/** The HTML exactly as the site serves it for that Content, and what was removed, in document order. */
export const contentPreviewAnswer = z.object({
  success: z.literal(true),
  html: z.string(),
  removed: z.array(contentRemoval),
});
export type ContentPreviewAnswer = z.infer<typeof contentPreviewAnswer>;

export const contentBlockRecord = z.object({
  _id: z.string(),
  id: z.string(),
  Title: z.string(),
  Slug: z.string(),
  Content: z.string(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContentBlockRecord = z.infer<typeof contentBlockRecord>;

export const slugParams = z.object({ slug: z.string().min(1).max(100) });
