import { useEffect, useRef, useState } from 'react';
import { EMBED_SNIPPET_TEXT, embedSnippet } from '../../../shared/embed-pages.js';
import { ghadiName, type Language } from '../../../shared/page-language.js';
import type { PublicGhadi } from '../../../shared/public-page-data.js';

/**
 * The code another site pastes to show this ghadi's embed (/embed/{name}), to copy. Rendered by the
 * server with PUBLIC_URL; without one the page's own origin is filled in once it runs.
 */
export function EmbedSnippet({
  ghadi,
  siteUrl,
  language,
}: {
  ghadi: PublicGhadi;
  siteUrl: string | null | undefined;
  language: Language;
}) {
  const text = EMBED_SNIPPET_TEXT[language];
  const [origin, setOrigin] = useState(siteUrl ?? '');
  const [copied, setCopied] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (!siteUrl) setOrigin(window.location.origin);
  }, [siteUrl]);
  const code = embedSnippet(origin, language, {
    nameEn: ghadi.NameEn,
    shownName: ghadiName(ghadi, language),
  });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      // No clipboard (an old browser, a page not served over HTTPS): selected, to copy by hand.
      field.current?.select();
    }
  };
  return (
    <section
      aria-labelledby="embed-heading"
      className="space-y-2 rounded-lg border border-slate-200 bg-white p-3 shadow-sm"
    >
      <h2 id="embed-heading" className="text-base font-semibold text-slate-900">
        {text.heading}
      </h2>
      <p className="text-sm text-slate-600">{text.hint}</p>
      <textarea
        ref={field}
        readOnly
        value={code}
        rows={5}
        aria-labelledby="embed-heading"
        onFocus={(event) => event.currentTarget.select()}
        className="block w-full resize-none rounded-md border border-slate-300 bg-slate-50 px-2 py-1.5 font-mono text-xs break-all text-slate-800"
      />
      <div className="flex items-center gap-3">
        <button
          type="button"
          onClick={() => void copy()}
          className="inline-flex min-h-11 items-center rounded-md bg-indigo-700 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700"
        >
          {text.copy}
        </button>
        <span role="status" className="text-sm font-medium text-emerald-800">
          {copied ? text.copied : ''}
        </span>
      </div>
    </section>
  );
}
