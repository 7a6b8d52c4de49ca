import type { CheckResult } from './types.js';

/** Runs one check; a failure to set it up is reported as the check failing, with the reason. */
export async function check(
  name: string,
  run: () => Promise<{ ok: boolean; detail: string }>,
): Promise<CheckResult> {
  try {
    return { name, ...(await run()) };
  } catch (error) {
    return { name, ok: false, detail: `could not run: ${(error as Error).message}` };
  }
}
