import { useEffect, useId, useState } from 'react';
import { useContentPreview } from '../../api/content-blocks-api.js';
import { ContentHtml } from '../../components/public/content-html.js';
import { messageOr } from '../../lib/api-client.js';

/** How long typing must pause before the server is asked again. */
const PAUSE_MS = 400;

function usePaused(value: string): string {
  const [paused, setPaused] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setPaused(value), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return paused;
}

/**
 * The block as the site will show it: the server's own sanitizing of the Content (POST
 * /api/contentblocks/preview), drawn with the public page's block component, and what saving removes.
 */
export function ContentPreview({ content }: { content: string }) {
  const paused = usePaused(content);
  const preview = useContentPreview(paused);
  const empty = content.trim() === '';
  // Emptied, the preview empties at once; written, it waits for the pause and its answer.
  const answer = empty ? undefined : preview.data;
  const removed = answer?.removed ?? [];
  const titleId = useId();
  return (
    <div className="min-w-0 space-y-2">
      {/* As tall as the editor's row of label and buttons, so that both boxes start level. */}
      <h3 id={titleId} className="flex min-h-8 items-end text-sm font-medium text-slate-700">
        Preview (as on the site)
      </h3>
      <section
        aria-labelledby={titleId}
        aria-busy={preview.isFetching}
        className="min-h-48 overflow-hidden rounded-md border border-slate-200 bg-white p-4 text-slate-900 shadow-sm"
      >
        {answer ? (
          <ContentHtml html={answer.html} />
        ) : (
          <p className="text-sm text-slate-600">
            {empty ? 'Write the content to see it here.' : 'Loading the preview…'}
          </p>
        )}
      </section>
      <div aria-live="polite">
        {preview.isError && (
          <p role="alert" className="text-sm text-red-700">
            {messageOr(preview.error, 'The preview could not be made.')}
          </p>
        )}
        {removed.length > 0 && (
          <div className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
            <p className="font-medium">Will be removed when saved:</p>
            <ul className="mt-1 list-disc space-y-0.5 pl-5">
              {removed.map((item, index) => (
                // The same removal may be listed twice (two scripts): its place keeps the keys apart.
                // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole, never reordered.
                <li key={index} className="break-words">
                  <code className="font-mono">{item.what}</code> — {item.why}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </div>
  );
}
