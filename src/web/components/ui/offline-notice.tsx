import { useFreshness } from '../../lib/last-known.js';

const timeOf = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

/**
 * Says that what the screen shows is the last known state: offline, or read from the service
 * worker's cache because the network did not answer in time.
 */
export function OfflineNotice() {
  const { online, cachedAt } = useFreshness();
  if (online && !cachedAt) return null;
  return (
    <p
      role="status"
      className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900"
    >
      {online ? 'No answer from the server' : 'Offline'} – showing the last known state
      {cachedAt && (
        <>
          {' '}
          (as of <time dateTime={cachedAt}>{timeOf(cachedAt)}</time>)
        </>
      )}
      .
    </p>
  );
}
