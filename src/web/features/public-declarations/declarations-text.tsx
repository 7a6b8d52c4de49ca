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
  return <code className="rounded bg-slate-100 px-1 py-0.5 font-mono wrap-anywhere">{children}</code>;
}

const HASHED = 'prevHash + "\\n" + JSON.stringify([seq, GID, Date, Result, Previous, DeclaredAt])';

const feedLink = (label: string) => (
  <a href={FEED_PATH} className="text-indigo-800 underline">
    {label}
  </a>
);

export interface DeclarationsText {
  heading: string;
  /** What the page proves, in plain words: a paragraph each. */
  intro: readonly string[];
  screenshot: { heading: string; steps: readonly string[]; corrections: string };
  technical: { heading: string; chain: string };
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
    heading: 'Declaration Log: every result, as it was declared',
    intro: [
      'This page lists every result published on this site, newest first, with the date and time it was declared.',
      'Nothing here can be removed or quietly changed. When a result is corrected, the correction is a new line that also shows the value it replaced. So this page is the proof of what the site declared, and when.',
    ],
    screenshot: {
      heading: 'Someone sent you a screenshot? Check it here',
      steps: [
        'Read the ghadi’s name, the date and the result on the screenshot.',
        'Find that ghadi and date in the list below (the newest come first; “Older entries” goes further back), or open the ghadi’s name to see its whole month.',
        'The same result here: the screenshot shows what this site declared. A different result, or no line for that ghadi and date: this site did not declare it, so do not trust the screenshot.',
      ],
      corrections:
        'A result marked ✱ was corrected after it was first declared; its line says what it was before.',
    },
    technical: {
      heading: 'Technical details: the hash chain',
      chain:
        "Each entry's hash covers the entry before it, so no entry can be changed or left out without changing every hash after it. The head below is the latest entry's hash: anyone can recompute it from the public data.",
    },
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
    heading: 'घोषणा लॉग: हर रिज़ल्ट, जैसा घोषित हुआ',
    intro: [
      'इस पेज पर इस साइट पर प्रकाशित हर रिज़ल्ट है, सबसे नया सबसे ऊपर, घोषणा की तारीख़ और समय के साथ।',
      'यहाँ से कुछ भी हटाया या चुपचाप बदला नहीं जा सकता। जब कोई रिज़ल्ट सुधारा जाता है, तो सुधार एक नई लाइन बनता है जिसमें पुराना रिज़ल्ट भी दिखता है। इसलिए यह पेज इस बात का सबूत है कि साइट ने क्या घोषित किया, और कब।',
    ],
    screenshot: {
      heading: 'किसी ने स्क्रीनशॉट भेजा है? यहाँ जाँचें',
      steps: [
        'स्क्रीनशॉट पर घड़ी का नाम, तारीख़ और रिज़ल्ट पढ़ें।',
        'नीचे की सूची में वही घड़ी और तारीख़ ढूँढें (सबसे नई पहले; “पुरानी एंट्री” से और पीछे जाएँ), या घड़ी के नाम पर जाकर उसका पूरा महीना देखें।',
        'यहाँ वही रिज़ल्ट है: स्क्रीनशॉट वही दिखाता है जो इस साइट ने घोषित किया। रिज़ल्ट अलग है, या उस घड़ी और तारीख़ की कोई लाइन नहीं है: यह इस साइट ने घोषित नहीं किया, इसलिए स्क्रीनशॉट पर भरोसा न करें।',
      ],
      corrections: '✱ वाला रिज़ल्ट पहली घोषणा के बाद सुधारा गया था; उसकी लाइन बताती है कि पहले क्या था।',
    },
    technical: {
      heading: 'तकनीकी जानकारी: हैश-शृंखला',
      chain:
        'हर एंट्री का हैश उससे पहले वाली एंट्री को भी समेटता है, इसलिए किसी एंट्री को बदलने या छोड़ने पर उसके बाद का हर हैश बदल जाता है। नीचे का शीर्ष नवीनतम एंट्री का हैश है: कोई भी इसे सार्वजनिक डेटा से दोबारा निकाल सकता है।',
    },
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
