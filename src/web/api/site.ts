import { useQuery } from '@tanstack/react-query';
import { todayInZone } from '../../shared/dates.js';
import type { SiteInfo } from '../../shared/site.js';
import { api } from '../lib/api-client.js';

export function useSiteInfo() {
  return useQuery({
    queryKey: ['site'],
    queryFn: () => api.get<SiteInfo>('/api/site', { anonymous: true }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Today in the site's time zone (falls back to the browser's own day until the site info arrives). */
export function useSiteToday(): string {
  const { data } = useSiteInfo();
  return data ? todayInZone(data.timeZone) : todayInZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
}
