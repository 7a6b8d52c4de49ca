import { inWords } from './field-labels.js';
import { noteAnswer } from './last-known.js';
import { endSession, getSession, markSession } from './session.js';

/** A failed API call: the server's message when it sent one, and the HTTP status (0 when no answer came). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly serverMessage: string | undefined,
    /** The failure's JSON body, for the flags some failures carry (`twoFactorRequired`). */
    readonly payload?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Where the API lives: the same origin by default, or VITE_API_URL for a separately hosted front end. */
const API_BASE = (import.meta.env.VITE_API_URL as string | undefined)?.replace(/\/$/, '') ?? '';

/** The full address of an API path, for the few calls not made with fetch (an upload's progress). */
export function apiUrl(path: string): string {
  return `${API_BASE}${path}`;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Calls that must not carry the session's token (public reads). */
  anonymous?: boolean;
  /** Lets the request outlive the page (a logout sent as the user leaves). */
  keepalive?: boolean;
}

export interface FetchOptions extends Omit<RequestOptions, 'body'> {
  body?: BodyInit;
}

/**
 * A 403 may say the account must first change its password or set up two-factor sign-in: the
 * session is marked, and the route guard (require-role.tsx) then keeps the user on the Account page.
 * Read from a copy, so that the caller still reads the answer itself.
 */
function noteAccountDemand(response: Response, token: string): void {
  response
    .clone()
    .json()
    .then((payload: { passwordChangeRequired?: unknown; twoFactorSetupRequired?: unknown }) => {
      // Answered after a sign-out or another sign-in: it was about a session that is gone.
      if (getSession()?.token !== token) return;
      if (payload?.passwordChangeRequired === true) markSession({ passwordChangeRequired: true });
      if (payload?.twoFactorSetupRequired === true) markSession({ twoFactorSetupRequired: true });
    })
    .catch(() => {
      // Not JSON: an ordinary refusal, nothing to note.
    });
}

/**
 * A call whose answer the caller reads itself (a file; a failure that carries data), sent as every
 * call is: to the API's address, with the session's token, ending the session on a 401.
 */
export async function apiFetch(method: Method, path: string, options: FetchOptions = {}): Promise<Response> {
  const session = options.anonymous ? null : getSession();
  const headers: Record<string, string> = { ...options.headers };
  if (session) headers.authorization = `Bearer ${session.token}`;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: options.body,
      signal: options.signal,
      keepalive: options.keepalive,
      credentials: API_BASE ? 'include' : 'same-origin',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError('Network error - please check your connection', 0, undefined);
  }
  noteAnswer(response);
  // An expired or revoked token ends the session; the route guard then sends the user to log in.
  if (response.status === 401 && session) endSession();
  if (response.status === 403 && session) noteAccountDemand(response, session.token);
  return response;
}

/**
 * The failure of an answer that is not OK: the server's message when it sent one, naming a field by
 * its label, not its code name (field-labels.ts). Every screen's server messages come through here,
 * but for the agent's submission queue, which reads its own answers and words them the same way.
 */
export function failureOf(response: Response, payload: unknown): ApiError {
  const message = (payload as { message?: unknown } | undefined)?.message;
  const serverMessage = typeof message === 'string' ? inWords(message) : undefined;
  return new ApiError(
    serverMessage ?? `Server error: ${response.status}`,
    response.status,
    serverMessage,
    payload,
  );
}

async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const { body, ...rest } = options;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await apiFetch(method, path, {
    ...rest,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw failureOf(response, payload);
  return payload as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};

/** The server's message for a failure, or the screen's own fallback text from the spec. */
export function messageOr(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}
