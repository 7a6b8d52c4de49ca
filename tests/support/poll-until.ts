/**
 * Asks `check` again (every few ms) until it answers; fails past `boundMs`: a bound, never a wait.
 * For what a test can only see from outside (a cache purged, a place freed on the server); what
 * the code can signal, a test awaits instead.
 */
export async function pollUntil<T>(
  what: string,
  boundMs: number,
  check: () => Promise<T | undefined>,
): Promise<T> {
  const end = performance.now() + boundMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (performance.now() > end) throw new Error(`${what}: not within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
