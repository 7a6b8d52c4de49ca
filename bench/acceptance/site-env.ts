import { SEED_ADMIN } from '../lib/seed.js';
import type { CheckSettings } from './types.js';

/**
 * The environment of a site a group starts for itself, as in production: the seed admin, the run's
 * time zone, its own origin as PUBLIC_URL, clients named in X-Forwarded-For (TRUST_PROXY=loopback),
 * and warnings only in its output.
 */
export function siteEnv(settings: CheckSettings, databaseUrl: string, port: number): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: databaseUrl,
    ADMIN_USERNAME: SEED_ADMIN.username,
    ADMIN_PASSWORD: SEED_ADMIN.password,
    SITE_TIMEZONE: settings.siteTimezone,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  };
}
