import type { HomePageData } from '../../shared/public-page-data.js';

/**
 * The public pages' reads: plain fetches of the cached public API (no session token, so the server
 * answers from memory; the browser revalidates with the ETag). Kept apart from the SPA's API client
 * so that the public bundle carries no session code.
 */

/** Why a read failed, as section 8 of the spec tells them apart. */
export type FetchFailure =
  | { kind: 'status'; status: number }
  | { kind: 'network' }
  | { kind: 'unexpected'; cause: unknown };

export class PublicFetchError extends Error {
  constructor(readonly failure: FetchFailure) {
    super(
      failure.kind === 'status'
        ? `Server error: ${failure.status}`
        : failure.kind === 'network'
          ? 'Network error - please check your connection'
          : 'An unexpected error occurred',
    );
    this.name = 'PublicFetchError';
  }
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** GET a public JSON answer; a non-2xx status, no answer, or a body that is not JSON each throw their kind. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      headers: { accept: 'application/json' },
      signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new PublicFetchError({ kind: 'network' });
  }
  if (!response.ok) throw new PublicFetchError({ kind: 'status', status: response.status });
  try {
    return (await response.json()) as T;
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new PublicFetchError({ kind: 'unexpected', cause: error });
  }
}

/** Like getJson, but a 404 is an answer (null), not a failure. */
export async function getJsonOrNull<T>(path: string, signal?: AbortSignal): Promise<T | null> {
  try {
    return await getJson<T>(path, signal);
  } catch (error) {
    if (
      error instanceof PublicFetchError &&
      error.failure.kind === 'status' &&
      error.failure.status === 404
    ) {
      return null;
    }
    throw error;
  }
}

/** Everything the home page shows, with the version (latest live event) it includes: GET /api/home. */
export async function fetchHomeData(): Promise<HomePageData> {
  return (await getJson<{ data: HomePageData }>('/api/home')).data;
}
