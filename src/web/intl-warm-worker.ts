/*
 * Builds, once, formatters like those the public pages use (src/shared/dates.ts, ghadi-due.ts and
 * the visitor count), for the site's zone. Nothing is sent back but "done": the first formatter a
 * page builds loads the browser's locale and time zone data, which is the slow part and is shared
 * by every thread of the page. Built here, on a worker, it no longer blocks the page's hydration.
 */
addEventListener('message', (event: MessageEvent<string>) => {
  const timeZone = event.data;
  const now = new Date();
  try {
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).formatToParts(now);
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(now);
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(now);
    new Intl.NumberFormat('en-IN').format(1234);
  } finally {
    postMessage('done');
  }
});
