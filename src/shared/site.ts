import { z } from 'zod';

export const SITE_NAME = 'Ghadi Results';

export const siteInfo = z.object({
  success: z.literal(true),
  siteName: z.string(),
  /** IANA zone in which "today" is reckoned (SITE_TIMEZONE). */
  timeZone: z.string(),
  /** Today's business date in that zone, YYYY-MM-DD. */
  today: z.string(),
});
export type SiteInfo = z.infer<typeof siteInfo>;
