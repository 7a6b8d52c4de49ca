import type { ReactNode } from 'react';
import { ghadiName, type Language } from '../../../shared/page-language.js';
import type { GhadiNames } from '../../../shared/public-page-data.js';
import { CHROME_TEXT } from './chrome-text.js';
import { NameText } from './ghadi-name.js';

/** How long the strip takes to pass one copy of its keywords: each keyword gets as long. */
const TICKER_SECONDS_PER_KEYWORD = 3.5;

/**
 * The scrolling keyword strip: a result keyword for every live ghadi (by OrderId, in the page's
 * language) between the site's own. The second copy makes the loop seamless and is hidden from readers.
 */
export function KeywordTicker({
  language = 'en',
  ghadis,
}: {
  language?: Language;
  ghadis: readonly GhadiNames[];
}) {
  const text = CHROME_TEXT[language];
  const keywords: Array<{ key: string; words: ReactNode }> = [
    ...text.keywordsBefore.map((words) => ({ key: words, words })),
    ...ghadis.map((ghadi) => ({
      key: `ghadi-${ghadi.GID}`,
      words: (
        <>
          {text.ghadiKeyword.before}
          <NameText name={ghadiName(ghadi, language)} language={language} />
          {text.ghadiKeyword.after}
        </>
      ),
    })),
    ...text.keywordsAfter.map((words) => ({ key: words, words })),
  ];
  const items = (hidden: boolean) => (
    <ul className="ticker-copy" aria-hidden={hidden || undefined}>
      {keywords.map((keyword) => (
        <li key={keyword.key} className="px-4">
          ★ {keyword.words}
        </li>
      ))}
    </ul>
  );
  return (
    <section
      aria-label={text.keywordsLabel}
      className="ticker bg-amber-300 py-1.5 text-sm font-semibold text-slate-900"
    >
      <div
        className="ticker-track"
        style={{ animationDuration: `${keywords.length * TICKER_SECONDS_PER_KEYWORD}s` }}
      >
        {items(false)}
        {items(true)}
      </div>
    </section>
  );
}
