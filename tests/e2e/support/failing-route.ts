import { expect, type Page, type Route } from '@playwright/test';

/**
 * A failing query's attempts before its screen shows the error: the first and two retries
 * (src/web/lib/query-client.ts retries a 5xx twice).
 */
export const QUERY_ATTEMPTS = 3;

/** TanStack Query's longest wait between two of those attempts (1 s, then 2 s). */
const LONGEST_RETRY_WAIT_MS = 2000;

export interface FailingRoute {
  /** Requests answered with the failure so far. */
  readonly failures: number;
  /** Stops failing: later requests reach the server. */
  stop(): Promise<void>;
}

/**
 * Answers every request matching `url` with a server error (500 unless `respond` says otherwise),
 * counting them, so that a test can wait for a number of failed attempts rather than for time.
 */
export async function failRequests(
  page: Page,
  url: string | RegExp,
  respond: (route: Route) => Promise<void> = (route) =>
    route.fulfill({ status: 500, json: { success: false, message: 'down' } }),
): Promise<FailingRoute> {
  let failures = 0;
  const handler = async (route: Route) => {
    failures += 1;
    await respond(route);
  };
  await page.route(url, handler);
  return {
    get failures() {
      return failures;
    },
    stop: () => page.unroute(url, handler),
  };
}

/**
 * Waits until a failing query has made every attempt, skipping the app's waits between attempts on
 * the page's clock, so that the error state follows from the failures alone, however busy the
 * machine. Needs `page.clock.install()` before the page loads.
 */
export async function exhaustRetries(page: Page, route: FailingRoute, attempts = QUERY_ATTEMPTS) {
  await expect
    .poll(async () => {
      if (route.failures < attempts) await page.clock.fastForward(LONGEST_RETRY_WAIT_MS);
      return route.failures;
    })
    .toBe(attempts);
}
