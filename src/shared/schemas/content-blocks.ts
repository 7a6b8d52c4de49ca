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
