import './styles.css';

/*
 * The public pages' entry. The page reads completely without JavaScript, and this module runs
 * only once the document is parsed and its stylesheet loaded, so React and the page's code (no
 * longer preloaded from the page's head) do not share a phone's slow connection with the
 * stylesheet. Waiting further, for the first frame, moved the paint earlier in Lighthouse's model
 * but hydration later, and the page's long tasks with it; on a busy machine it also left the
 * page unhydrated for seconds.
 *
 * Meanwhile a worker loads the browser's date and time zone data (intl-warm-worker.ts), which the
 * page's first date formatter would otherwise load in one long task in the middle of hydration.
 * Hydration waits for it, though never more than a second: without it the page still hydrates,
 * only slower.
 */
const WARM_WAIT_MS = 1000;

function warmDates(): Promise<void> {
  const data = document.getElementById('page-data')?.textContent ?? '';
  const timeZone = /"timeZone":"([^"]+)"/.exec(data)?.[1] ?? 'UTC';
  return new Promise((resolve) => {
    try {
      const worker = new Worker(new URL('./intl-warm-worker.ts', import.meta.url), { type: 'module' });
      const done = () => {
        worker.terminate();
        resolve();
      };
      worker.onmessage = done;
      worker.onerror = done;
      setTimeout(done, WARM_WAIT_MS);
      worker.postMessage(timeZone);
    } catch {
      resolve();
    }
  });
}

/*
 * A module is evaluated with everything it imports in one task, and React's evaluation alone is
 * already long on a phone. Both are fetched at once; React, the smaller set, is then usually
 * evaluated first, on a task of its own, and the page's modules on a later one.
 */
async function hydrate(warmed: Promise<void>) {
  const react = import('react-dom/client');
  const page = import('./public-hydrate.js');
  await react;
  const [{ hydratePage }] = await Promise.all([page, warmed]);
  await hydratePage();
}

function start(warmed: Promise<void>) {
  hydrate(warmed).catch((error: unknown) =>
    console.error('The page could not start its live updates', error),
  );
}

start(warmDates());
