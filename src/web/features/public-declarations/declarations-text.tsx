/**
 * What the declaration log's page says, in each language. The checking steps name the API's fields
 * and calls, which stay as they are in either language; the words around them are each language's
 * own sentences, so the steps are markup here rather than strings.
 */
import type { ReactNode } from 'react';
import { correctionLabel } from '../../../shared/correction-label.js';
import { FEED_PATH } from '../../../shared/declaration-log-pages.js';
import type { Language } from '../../../shared/page-language.js';

export function Code({ children }: { children: ReactNode }) {
  return (
    <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] wrap-anywhere">{children}</code>
  );
}

const HASHED = 'prevHash + "\\n" + JSON.stringify([seq, GID, Date, Result, Previous, DeclaredAt])';

const feedLink = (label: string) => (
  <a href={FEED_PATH} className="text-indigo-800 underline">
    {label}
  </a>
);

export interface DeclarationsText {
  heading: string;
  intro: string;
  headLabel: string;
  latestEntry: string;
  headHash: string;
  noSuchPage: (pageNumber: number) => string;
  seeLatest: string;
  nothingYet: string;
  caption: string;
  timesIn: (timeZone: string) => string;
  columns: { declared: string; ghadi: string; result: string };
  /** Before the result's date, its space included: "for 22 Nov 2026". */
  forDate: string;
  corrected: (previous: string | null) => string;
  pager: { label: string; newer: string; older: string; page: (page: number, count: number) => string };
  verify: { heading: string; steps: ReactNode; tool: ReactNode };
}

export const DECLARATIONS_TEXT = {
  en: {
    heading: 'Declaration Log',
    intro:
      "Every result declared or corrected on this site, in order. Each entry's hash covers the entry before it, so no entry can be changed or left out without changing every hash after it.",
    headLabel: 'Head of the log',
    latestEntry: 'Latest entry',
    headHash: 'Head hash',
    noSuchPage: (pageNumber) =>
      pageNumber >= 1 ? `There is no page ${pageNumber} of the log.` : 'There is no such page of the log.',
    seeLatest: 'See the latest entries',
    nothingYet: 'Nothing has been declared yet.',
    caption: 'Declarations, newest first',
    timesIn: (timeZone) => `Times in ${timeZone}`,
    columns: { declared: 'Declared', ghadi: 'Ghadi', result: 'Result' },
    forDate: 'for ',
    corrected: correctionLabel,
    pager: {
      label: 'Log pages',
      newer: '← Newer entries',
      older: 'Older entries →',
      page: (page, count) => `Page ${page} of ${count}`,
    },
    verify: {
      heading: 'How to check the log',
      steps: (
        <>
          <li>
            Read every entry, oldest first, from <Code>GET /api/declarations?after=0&amp;limit=1000</Code>,
            then again with <Code>after</Code> set to the last <Code>seq</Code> you got, until none are left.
          </li>
          <li>
            For each entry compute <Code>hash</Code> = the lowercase hex SHA-256 of the UTF-8 bytes of{' '}
            <Code>{HASHED}</Code>. The first entry&apos;s <Code>prevHash</Code> is 64 zeros; every other
            entry&apos;s is the hash of the entry before it, and <Code>seq</Code> goes up by one each time.
          </li>
          <li>
            The last hash must be the head shown above (<Code>GET /api/declarations/head</Code>). Note the
            head you saw: any later check must reach the same hash at that <Code>seq</Code>, or an entry was
            changed.
          </li>
        </>
      ),
      tool: (
        <>
          From the site&apos;s source, <Code>npm run verify -- URL</Code> does all of this against the site at{' '}
          <Code>URL</Code>. The latest entries are also an {feedLink('Atom feed')}.
        </>
      ),
    },
  },
  hi: {
    heading: 'घोषणा लॉग',
    intro:
      'इस साइट पर घोषित या सुधारा गया हर रिज़ल्ट, क्रम से। हर एंट्री का हैश उससे पहले वाली एंट्री को भी समेटता है, इसलिए किसी एंट्री को बदलने या छोड़ने पर उसके बाद का हर हैश बदल जाता है।',
    headLabel: 'लॉग का शीर्ष',
    latestEntry: 'नवीनतम एंट्री',
    headHash: 'शीर्ष हैश',
    noSuchPage: (pageNumber) =>
      pageNumber >= 1 ? `लॉग का पेज ${pageNumber} मौजूद नहीं है।` : 'लॉग का ऐसा कोई पेज नहीं है।',
    seeLatest: 'नवीनतम एंट्री देखें',
    nothingYet: 'अभी तक कुछ भी घोषित नहीं हुआ है।',
    caption: 'घोषणाएँ, सबसे नई पहले',
    timesIn: (timeZone) => `समय ${timeZone} के अनुसार`,
    columns: { declared: 'घोषित', ghadi: 'घड़ी', result: 'रिज़ल्ट' },
    forDate: 'तारीख़ ',
    corrected: (previous) => correctionLabel(previous, 'hi'),
    pager: {
      label: 'लॉग के पेज',
      newer: '← नई एंट्री',
      older: 'पुरानी एंट्री →',
      page: (page, count) => `पेज ${page} (कुल ${count})`,
    },
    verify: {
      heading: 'लॉग की जाँच कैसे करें',
      steps: (
        <>
          <li>
            हर एंट्री, सबसे पुरानी पहले, <Code>GET /api/declarations?after=0&amp;limit=1000</Code> से पढ़ें; फिर{' '}
            <Code>after</Code> में पिछली बार मिला आख़िरी <Code>seq</Code> रखकर दोबारा पढ़ें, जब तक कोई एंट्री बाक़ी न
            रहे।
          </li>
          <li>
            हर एंट्री का <Code>hash</Code> निकालें: <Code>{HASHED}</Code> के UTF-8 बाइट्स का SHA-256, छोटे अक्षरों वाले
            hex में। पहली एंट्री का <Code>prevHash</Code> 64 शून्य है; बाक़ी हर एंट्री का उससे पहले वाली एंट्री का हैश है, और{' '}
            <Code>seq</Code> हर बार एक बढ़ता है।
          </li>
          <li>
            आख़िरी हैश ऊपर दिखाया गया शीर्ष होना चाहिए (<Code>GET /api/declarations/head</Code>)। जो शीर्ष आपने देखा
            उसे लिख लें: बाद की हर जाँच में उसी <Code>seq</Code> पर वही हैश आना चाहिए, वरना कोई एंट्री बदली गई है।
          </li>
        </>
      ),
      tool: (
        <>
          साइट के सोर्स कोड से <Code>npm run verify -- URL</Code> यह सारी जाँच <Code>URL</Code> वाली साइट पर
          अपने-आप करता है। नवीनतम एंट्री {feedLink('Atom फ़ीड')} में भी मिलती हैं।
        </>
      ),
    },
  },
} satisfies Record<Language, DeclarationsText>;
