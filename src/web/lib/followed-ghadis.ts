/**
 * The ghadis this browser follows by push notifications, as the bells read them on every page and
 * lib/push-follow.ts keeps them; the server has the same set for this browser's subscription.
 */
export const FOLLOWED_KEY = 'ghadi-push-follows';
/** Sent on window when the set or the permission changes, so that every bell on the page rereads. */
export const BELLS_EVENT = 'ghadi-bells';

export function followedGhadis(): number[] {
  try {
    return JSON.parse(localStorage.getItem(FOLLOWED_KEY) ?? '[]') as number[];
  } catch {
    return [];
  }
}
