import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import { getJsonOrNull } from '../../lib/public-fetch.js';

/** One ghadi's results for a month from the cached public API; null when there are none (404). */
export async function fetchGhadiMonth(
  name: string,
  month: number,
  year: number,
  signal?: AbortSignal,
): Promise<PublicResultRecord[] | null> {
  const answer = await getJsonOrNull<{ data: PublicResultRecord[] }>(
    `/api/results/${encodeURIComponent(name)}?month=${month}&year=${year}`,
    signal,
  );
  return answer?.data ?? null;
}
