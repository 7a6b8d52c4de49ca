import { z } from 'zod';
import { ghadiRecord } from './ghadis.js';
import { publicResultRecord } from './results.js';

/** GET /api/home: everything the home page shows (HomePageData in src/shared/public-page-data.ts). */
export const homeAnswer = z.object({
  success: z.literal(true),
  data: z.object({
    page: z.literal('home'),
    version: z.number().int(),
    siteName: z.string(),
    today: z.string(),
    timeZone: z.string(),
    updatedAt: z.string(),
    recordMonth: z.string(),
    ghadis: z.array(ghadiRecord),
    record: z.array(publicResultRecord),
    blogHtml: z.string().nullable(),
    bannerHtml: z.string().nullable(),
  }),
});
