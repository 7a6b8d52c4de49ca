import { ApiError, apiUrl } from './api-client.js';
import { inWords } from './field-labels.js';
import { endSession, getSession } from './session.js';

/** What the server said when it refused a file, in its own words when it gave any. */
const REFUSALS: Record<number, string> = {
  400: 'The server could not read this file.',
  413: 'The file is too large.',
  415: 'This kind of file is not accepted.',
};

function failureOf(status: number, body: string): ApiError {
  let message: string | undefined;
  try {
    const payload = JSON.parse(body) as { message?: unknown };
    if (typeof payload?.message === 'string') message = inWords(payload.message);
  } catch {
    // Not JSON (a proxy's page): the status alone says what went wrong.
  }
  const fallback = status === 0 ? 'Network error - please check your connection' : REFUSALS[status];
  return new ApiError(message ?? fallback ?? `Server error: ${status}`, status, message);
}

/**
 * Sends one file as multipart form data, reporting how much of it has gone (0 to 1). fetch cannot
 * report an upload's progress, so this is the one call made with XMLHttpRequest; it carries the
 * session's token and ends the session on a 401, as every other call does (api-client.ts).
 */
export function uploadWithProgress<T>(
  path: string,
  field: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const session = getSession();
    const request = new XMLHttpRequest();
    request.open('POST', apiUrl(path));
    request.withCredentials = path !== apiUrl(path);
    request.setRequestHeader('accept', 'application/json');
    if (session) request.setRequestHeader('authorization', `Bearer ${session.token}`);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        try {
          resolve(JSON.parse(request.responseText) as T);
        } catch {
          reject(new ApiError('The server sent an unreadable answer.', request.status, undefined));
        }
        return;
      }
      if (request.status === 401 && session) endSession();
      reject(failureOf(request.status, request.responseText));
    });
    request.addEventListener('error', () => reject(failureOf(0, '')));
    request.addEventListener('abort', () => reject(new DOMException('Upload cancelled', 'AbortError')));
    const body = new FormData();
    body.append(field, file);
    request.send(body);
  });
}
