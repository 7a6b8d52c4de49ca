import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { addDays, todayInZone } from '../../shared/dates.js';
import type { SiteInfo } from '../../shared/site.js';
import { api } from '../lib/api-client.js';

/** How often to look whether the business day has turned. */
const CLOCK_TICK_MS = 60_000;

export function useSiteInfo() {
  return useQuery({
    queryKey: ['site'],
    queryFn: () => api.get<SiteInfo>('/api/site', { anonymous: true }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The site's time zone; the browser's own until the site's arrives. */
export function useSiteTimeZone(): string {
  return useSiteInfo().data?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * Today and tomorrow in the site's time zone, kept current while the page stays open: someone who
 * opens a result form before midnight and submits after it must not find yesterday's date there.
 * Until the site's zone arrives (slow network), the browser's own zone is the best guess.
 */
export function useBusinessToday(): { today: string; tomorrow: string } {
  const timeZone = useSiteTimeZone();
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);

  const today = todayInZone(timeZone, new Date(now));
  return { today, tomorrow: addDays(today, 1) };
}

/** Today in the site's time zone. */
export function useSiteToday(): string {
  return useBusinessToday().today;
}
