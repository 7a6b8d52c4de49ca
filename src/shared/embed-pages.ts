/**
 * The embeds: small pages another site shows in an iframe (one ghadi's latest values, or every
 * ghadi's today), their addresses, and what they and the snippet that embeds them say in each
 * language. Pure: the server renders the embeds from it, the results page shows the snippet.
 */
import { foldName } from './names.js';
import { inLanguage, type Language } from './page-language.js';

/** Every ghadi's today and yesterday (the board), as an embed. A ghadi may not be named "board". */
export const EMBED_BOARD_PATH = '/embed/board';

/** One ghadi's embed, at its folded name as its results page is. */
export const ghadiEmbedPath = (nameEn: string) => `/embed/${encodeURIComponent(foldName(nameEn))}`;

/** The frame's size the snippet suggests: a phone's width, and the board taller. */
export const EMBED_FRAME = {
  ghadi: { width: 360, height: 220 },
  board: { width: 360, height: 480 },
} as const;

export interface EmbedText {
  today: string;
  yesterday: string;
  /** Before a ghadi's result time: "Result time 5:00 PM". */
  resultTime: (time: string) => string;
  waiting: string;
  holiday: string;
  offDay: string;
  /** The board embed's heading and its columns. */
  board: string;
  ghadi: string;
  /** The link back to the site, opened outside the frame. */
  more: (siteName: string) => string;
}

/** What the embeds say (the server renders them). */
export const EMBED_TEXT = {
  en: {
    today: 'Today',
    yesterday: 'Yesterday',
    resultTime: (time) => `Result time ${time}`,
    waiting: 'Waiting',
    holiday: 'Holiday',
    offDay: 'Closed today',
    board: 'Live Result Chart',
    ghadi: 'Ghadi',
    more: (siteName) => `More on ${siteName} →`,
  },
  hi: {
    today: 'आज',
    yesterday: 'कल',
    resultTime: (time) => `रिज़ल्ट का समय ${time}`,
    waiting: 'इंतज़ार में',
    holiday: 'छुट्टी',
    offDay: 'आज बंद',
    board: 'लाइव रिज़ल्ट चार्ट',
    ghadi: 'घड़ी',
    more: (siteName) => `${siteName} पर और देखें →`,
  },
} satisfies Record<Language, EmbedText>;

export interface EmbedSnippetText {
  /** The results page's box with the snippet. */
  heading: string;
  hint: string;
  copy: string;
  copied: string;
  /** The iframe's title (screen readers announce it), and the embed's own. */
  frameTitle: (name: string) => string;
  boardFrameTitle: string;
}

/** What the snippet and its box on the results page say (apart: the public bundle carries this alone). */
export const EMBED_SNIPPET_TEXT = {
  en: {
    heading: 'Show this result on your site',
    hint: 'Copy this code into your page: the result updates by itself when it is declared.',
    copy: 'Copy',
    copied: 'Copied',
    frameTitle: (name) => `${name} live result`,
    boardFrameTitle: 'Live result chart',
  },
  hi: {
    heading: 'यह रिज़ल्ट अपनी साइट पर दिखाएँ',
    hint: 'यह कोड अपने पेज में लगाएँ: रिज़ल्ट घोषित होते ही अपने-आप बदल जाता है।',
    copy: 'कॉपी करें',
    copied: 'कॉपी हो गया',
    frameTitle: (name) => `${name} लाइव रिज़ल्ट`,
    boardFrameTitle: 'लाइव रिज़ल्ट चार्ट',
  },
} satisfies Record<Language, EmbedSnippetText>;

function attribute(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/**
 * The HTML another site pastes to show a ghadi's embed (`nameEn`) or the board's (null), in
 * `language`; `origin` is the site's address (PUBLIC_URL, or the page's own origin).
 */
export function embedSnippet(
  origin: string,
  language: Language,
  ghadi: { nameEn: string; shownName: string } | null,
): string {
  const text: EmbedSnippetText = EMBED_SNIPPET_TEXT[language];
  const path = ghadi ? ghadiEmbedPath(ghadi.nameEn) : EMBED_BOARD_PATH;
  const { width, height } = EMBED_FRAME[ghadi ? 'ghadi' : 'board'];
  const title = ghadi ? text.frameTitle(ghadi.shownName) : text.boardFrameTitle;
  return (
    `<iframe src="${attribute(`${origin}${inLanguage(language, path)}`)}" title="${attribute(title)}" ` +
    `width="${width}" height="${height}" style="border:0;max-width:100%" loading="lazy"></iframe>`
  );
}
