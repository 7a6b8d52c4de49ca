import { createHash } from 'node:crypto';
import { EVENTS_PATH, EVENTS_SINCE_PARAM } from '../../../shared/live-events.js';

/*
 * What an embed page loads besides itself: the style (inline: the policy allows inline styles) and
 * the script (a file: the policy allows scripts from this site only). Written out here, not built by
 * Vite, so that an embed loads nothing of the public pages' bundle and the server knows the file's
 * hash without a build.
 */

/** The embeds' whole style: a card (one ghadi) and a table (the board), in the site's colours. */
export const EMBED_STYLE = [
  '*{box-sizing:border-box}',
  'body{margin:0;font:15px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Devanagari",sans-serif;color:#0f172a;background:#fff}',
  'main{padding:10px 12px;border:1px solid #e2e8f0;border-radius:10px}',
  'h1{margin:0;font-size:18px;color:#312e81;overflow-wrap:anywhere}',
  '.sub{margin:2px 0 8px;color:#475569;font-size:13px}',
  '.values{display:flex;gap:8px}',
  '.values>div{flex:1;text-align:center;background:#f1f5f9;border-radius:8px;padding:6px 4px}',
  '.label{display:block;font-size:12px;color:#475569}',
  '.values b{display:block;font-size:30px;line-height:40px}',
  '.values b.wait{font-size:15px}',
  '.wait{color:#b45309;font-weight:600}',
  '.new{animation:new 3s}',
  '@keyframes new{from{background:#fde68a}}',
  'table{width:100%;border-collapse:collapse;font-size:14px}',
  'th,td{padding:5px 6px;border-bottom:1px solid #e2e8f0;text-align:center}',
  'thead th{background:#1e293b;color:#fff;font-size:12px;font-weight:600}',
  'tbody th{text-align:left;font-weight:600}',
  'tbody th small{display:block;font-weight:400;color:#475569;font-size:12px}',
  'td{font-weight:700;font-size:16px;width:26%}',
  'td.wait{font-size:13px}',
  'a{color:#3730a3}',
  'tbody a{text-decoration:none}',
  '.more{display:inline-block;margin-top:8px;font-weight:600;font-size:14px}',
].join('');

/**
 * The embeds' script: it opens the site's live event stream after the version the page was built at
 * (`data-version`) and writes each ghadi's row into the elements marked with its GID, as the
 * public pages apply the same events (src/web/lib/live-updates.ts). What it cannot apply in place (a
 * new day, a ghadi changed, a resync) reloads the page, which the answer cache serves at once. A
 * refused stream (429, 503) is tried again, by a reload, a minute later.
 */
const SCRIPT = `(()=>{
const d=document,h=d.documentElement,t=d.body.dataset;
const rows=(g)=>d.querySelectorAll('[data-gid="'+g+'"]');
const show=(g)=>{for(const r of rows(g.GID)){
const a=r.querySelector('[data-today]'),b=r.querySelector('[data-yesterday]');
const v=g.TodayResult||(g.Closed==='holiday'?t.holiday:g.Closed?t.offDay:t.waiting);
if(a&&a.textContent!==v){a.textContent=v;a.classList.toggle('wait',!g.TodayResult);a.classList.toggle('new',!!g.TodayResult)}
if(b)b.textContent=g.YesterdayResult||'–'}};
const s=new EventSource('${EVENTS_PATH}?${EVENTS_SINCE_PARAM}='+h.dataset.version);
s.onopen=()=>{h.dataset.live='open'};
s.onmessage=(m)=>{let e;try{e=JSON.parse(m.data)}catch{return}
if(e.kind==='result'&&e.ghadi)show(e.ghadi);
else if(e.kind==='day'||e.kind==='resync'||((e.kind==='result'||e.kind==='ghadi')&&(rows(e.gid).length||'board' in t)))location.reload()};
s.onerror=()=>{h.dataset.live='polling';if(s.readyState===2)setTimeout(()=>location.reload(),6e4)};
})();
`;

/** The script's bytes and the address that names them (a new script is a new address). */
export const EMBED_SCRIPT = {
  text: SCRIPT,
  hash: createHash('sha256').update(SCRIPT).digest('hex').slice(0, 16),
};

/** The script's address: the hash in it lets every cache keep it a year. */
export const EMBED_SCRIPT_ROUTE = '/embed-live.:hash.js';
export const embedScriptPath = () => `/embed-live.${EMBED_SCRIPT.hash}.js`;
