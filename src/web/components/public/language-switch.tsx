import { inLanguage, LANGUAGE_NAMES, type Language, otherLanguage } from '../../../shared/page-language.js';

function GlobeIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="h-4 w-4 fill-none stroke-current stroke-2">
      <path d="M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18ZM3 12h18M12 3c2.5 2.7 3.6 5.7 3.6 9s-1.1 6.3-3.6 9c-2.5-2.7-3.6-5.7-3.6-9S9.5 5.7 12 3Z" />
    </svg>
  );
}

/**
 * The link to this page in the other language, named in that language (its reader finds it) and
 * marked so, for screen readers and search engines alike.
 */
export function LanguageSwitch({ language, path }: { language: Language; path: string }) {
  const other = otherLanguage(language);
  return (
    <a
      href={inLanguage(other, path)}
      hrefLang={other}
      lang={other}
      data-testid="language-switch"
      className="inline-flex min-h-9 items-center gap-1.5 rounded-full border border-amber-300 px-3 text-sm font-semibold text-amber-200 hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-amber-300 sm:order-last"
    >
      <GlobeIcon />
      {LANGUAGE_NAMES[other]}
    </a>
  );
}
