import { api } from './api-client.js';
import { queryClient } from './query-client.js';
import { endSession, getSession } from './session.js';

/**
 * Logs out: asks the server to end this session's token (so that a copy of it stops working too)
 * and forgets the session in the browser at once, without waiting for the answer. On a slow or
 * absent network the browser still logs out; the request goes on in the background (keepalive,
 * so leaving the page does not cancel it). Other sessions of the same user are not touched.
 */
export function logOut(): void {
  const session = getSession();
  endSession();
  queryClient.clear();
  if (!session) return;
  // Sent with the token it ends, not the current session's: a new login made meanwhile must not
  // be ended by this call's 401.
  api
    .post('/api/users/logout', undefined, {
      anonymous: true,
      headers: { authorization: `Bearer ${session.token}` },
      keepalive: true,
    })
    .catch(() => {
      // Offline, or the token had already ended: either way the browser has forgotten it.
    });
}
