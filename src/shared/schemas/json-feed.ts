import { z } from 'zod';

/**
 * A ghadi's JSON Feed (/satta-results/{name}/feed.json): JSON Feed 1.1 (https://jsonfeed.org/version/1.1),
 * each item one entry of the declaration log, with the entry itself under `_declaration` (the
 * format's way of carrying what it does not name).
 */
export const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1.1';

export const jsonFeedDeclaration = z.object({
  seq: z.number().int().min(1),
  GID: z.number().int(),
  Date: z.string(),
  Result: z.string(),
  Previous: z.string().nullable(),
  DeclaredAt: z.string(),
  hash: z.string(),
  prevHash: z.string(),
  Step: z.enum(['open', 'close']).nullable(),
  /** It replaced a declared value (an open half completed by its close is no correction). */
  correction: z.boolean(),
});

export const jsonFeedItem = z.object({
  id: z.string(),
  url: z.string(),
  external_url: z.string().optional(),
  title: z.string(),
  content_text: z.string(),
  date_published: z.string(),
  tags: z.array(z.string()).optional(),
  _declaration: jsonFeedDeclaration,
});

export const jsonFeed = z.object({
  version: z.literal(JSON_FEED_VERSION),
  title: z.string(),
  home_page_url: z.string(),
  feed_url: z.string(),
  description: z.string(),
  language: z.string(),
  authors: z.array(z.object({ name: z.string(), url: z.string().optional() })),
  items: z.array(jsonFeedItem),
});
export type JsonFeed = z.infer<typeof jsonFeed>;
