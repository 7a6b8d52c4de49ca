import { longDate } from '../../../shared/date-labels.js';
import { EMBED_SNIPPET_TEXT, EMBED_TEXT, type EmbedText } from '../../../shared/embed-pages.js';
import { ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import { ghadiName, inLanguage, type Language } from '../../../shared/page-language.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { SITE_NAME } from '../../../shared/site.js';
import { EMBED_STYLE, embedScriptPath } from './embed-assets.js';
import { escapeHtml } from './page-document.js';

/*
 * The embeds' HTML: small pages made as text, without React or the public pages' bundle, so that a
 * page another site frames loads little (a test holds it to its budget). Pure: the reads give the data.
 */

/** What an embed is built from besides its ghadis. */
export interface EmbedFrame {
  language: Language;
  /** The change id its data includes: its event stream starts after it. */
  version: number;
  today: string;
  /** PUBLIC_URL or null: links are then relative, which in a frame still names this site. */
  origin: string | null;
}

type Shown = Pick<GhadiRecord, 'TodayResult' | 'YesterdayResult' | 'Closed'>;

/** Today's value as the embed (and its script) shows it: the value, or why there is none yet. */
function todayCell(ghadi: Shown, text: EmbedText): { value: string; waiting: boolean } {
  if (ghadi.TodayResult) return { value: ghadi.TodayResult, waiting: false };
  const value =
    ghadi.Closed === 'holiday' ? text.holiday : ghadi.Closed === 'off-day' ? text.offDay : text.waiting;
  return { value, waiting: true };
}

const todayClass = (waiting: boolean) => (waiting ? ' class="wait"' : '');

function document(frame: EmbedFrame, title: string, body: string, board: boolean) {
  const text = EMBED_TEXT[frame.language];
  // The script's labels for a value not declared yet, in the page's language.
  const labels =
    `data-waiting="${escapeHtml(text.waiting)}" data-holiday="${escapeHtml(text.holiday)}" ` +
    `data-off-day="${escapeHtml(text.offDay)}"${board ? ' data-board=""' : ''}`;
  return (
    `<!doctype html><html lang="${frame.language}" data-version="${frame.version}"><head>` +
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
    // A frame's content, not a page of its own to find (so no canonical either).
    '<meta name="robots" content="noindex">' +
    `<title>${escapeHtml(title)}</title>` +
    `<style>${EMBED_STYLE}</style>` +
    `<script src="${embedScriptPath()}" defer></script>` +
    `</head><body ${labels}>${body}</body></html>`
  );
}

/** The link back to the site: it opens in the whole window, not in the frame. */
function moreLink(frame: EmbedFrame, path: string): string {
  const href = `${frame.origin ?? ''}${inLanguage(frame.language, path)}`;
  const label = EMBED_TEXT[frame.language].more(SITE_NAME);
  return `<a class="more" href="${escapeHtml(href)}" target="_top">${escapeHtml(label)}</a>`;
}

/** One ghadi's embed: its name and time, yesterday's and today's value, the link to its page. */
export function ghadiEmbedHtml(ghadi: GhadiRecord, frame: EmbedFrame): string {
  const text = EMBED_TEXT[frame.language];
  const name = ghadiName(ghadi, frame.language);
  const today = todayCell(ghadi, text);
  const page = ghadiPagePath(ghadi.NameEn);
  const body =
    `<main data-gid="${ghadi.GID}"><h1>${escapeHtml(name)}</h1>` +
    `<p class="sub">${escapeHtml(text.resultTime(ghadi.RTime))} · ${escapeHtml(longDate(frame.today, frame.language))}</p>` +
    '<div class="values">' +
    `<div><span class="label">${escapeHtml(text.yesterday)}</span><b data-yesterday>${escapeHtml(ghadi.YesterdayResult || '–')}</b></div>` +
    `<div><span class="label">${escapeHtml(text.today)}</span><b data-today${todayClass(today.waiting)}>${escapeHtml(today.value)}</b></div>` +
    `</div>${moreLink(frame, page)}</main>`;
  return document(
    frame,
    `${EMBED_SNIPPET_TEXT[frame.language].frameTitle(name)} – ${SITE_NAME}`,
    body,
    false,
  );
}

/** Every ghadi's today (the board) as an embed: a row per ghadi, by OrderId. */
export function boardEmbedHtml(ghadis: readonly GhadiRecord[], frame: EmbedFrame): string {
  const text = EMBED_TEXT[frame.language];
  const rows = ghadis.map((ghadi) => {
    const today = todayCell(ghadi, text);
    const href = `${frame.origin ?? ''}${inLanguage(frame.language, ghadiPagePath(ghadi.NameEn))}`;
    return (
      `<tr data-gid="${ghadi.GID}"><th scope="row"><a href="${escapeHtml(href)}" target="_top">` +
      `${escapeHtml(ghadiName(ghadi, frame.language))}</a><small>${escapeHtml(ghadi.RTime)}</small></th>` +
      `<td data-yesterday>${escapeHtml(ghadi.YesterdayResult || '–')}</td>` +
      `<td data-today${todayClass(today.waiting)}>${escapeHtml(today.value)}</td></tr>`
    );
  });
  const body =
    `<main><h1>${escapeHtml(text.board)}</h1><p class="sub">${escapeHtml(longDate(frame.today, frame.language))}</p>` +
    `<table><thead><tr><th scope="col">${escapeHtml(text.ghadi)}</th><th scope="col">${escapeHtml(text.yesterday)}</th>` +
    `<th scope="col">${escapeHtml(text.today)}</th></tr></thead><tbody>${rows.join('')}</tbody></table>` +
    `${moreLink(frame, '/')}</main>`;
  return document(frame, `${text.board} – ${SITE_NAME}`, body, true);
}
