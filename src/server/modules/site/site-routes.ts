import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { todayInZone } from '../../../shared/dates.js';
import { SITE_NAME, siteInfo } from '../../../shared/site.js';

/** What a browser needs to know about the site, such as the time zone its "today" is reckoned in. */
export const siteRoutes: FastifyPluginAsyncZod<{ timeZone: string }> = async (app, { timeZone }) => {
  app.get(
    '/api/site',
    { config: { access: 'public' }, schema: { response: { 200: siteInfo } } },
    async () => ({ success: true as const, siteName: SITE_NAME, timeZone, today: todayInZone(timeZone) }),
  );
};
