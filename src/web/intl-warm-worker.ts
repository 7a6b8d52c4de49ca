import { dateInZone, timeInZone } from '../shared/dates.js';
import { instantInZone } from '../shared/ghadi-due.js';

/*
 * Runs, once, the date functions the public pages run first (each builds its formatter for the
 * site's zone), and formats a count as the visitor panel does. Nothing is sent back but "done":
 * the first formatter a page builds loads the browser's locale and time zone data, which is the
 * slow part and is shared by every thread of the page. Done here, on a worker, it no longer blocks
 * the page's hydration.
 */
addEventListener('message', (event: MessageEvent<string>) => {
  const timeZone = event.data;
  const now = new Date();
  try {
    timeInZone(now.toISOString(), timeZone);
    instantInZone(dateInZone(now, timeZone), { hour: 12, minute: 0 }, timeZone);
    (1234).toLocaleString('en-IN');
  } finally {
    postMessage('done');
  }
});
