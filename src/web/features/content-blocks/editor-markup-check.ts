/**
 * Which parts of a block's HTML the visual editor would not keep. The site allows more than the
 * editor knows (font, span styles, sup…): a block written with them opens in the HTML view, so that
 * merely opening it cannot drop them.
 */

const ANY = ['style'];
const KEPT: Record<string, readonly string[]> = {
  p: ANY,
  h1: ANY,
  h2: ANY,
  h3: ANY,
  h4: ANY,
  strong: [],
  b: [],
  em: [],
  i: [],
  u: [],
  s: [],
  del: [],
  strike: [],
  code: [],
  pre: [],
  blockquote: [],
  br: [],
  hr: [],
  ul: [],
  ol: ['start', 'type'],
  li: [],
  a: ['href', 'target', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height', 'srcset', 'sizes', 'loading', 'decoding'],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: ['colspan', 'rowspan', 'style'],
  td: ['colspan', 'rowspan', 'style'],
};

/** The editor keeps a style only when it is an alignment, on the blocks it aligns. */
function keptStyle(element: Element): boolean {
  const declarations = (element.getAttribute('style') ?? '')
    .split(';')
    .map((declaration) => declaration.trim())
    .filter(Boolean);
  return declarations.every((declaration) =>
    /^text-align\s*:\s*(left|right|center|justify)$/i.test(declaration),
  );
}

/** Short descriptions (“<font>”, “style on <span>”) of what the editor would drop, each once. */
export function markupTheEditorDrops(html: string): string[] {
  if (!html.trim() || typeof DOMParser === 'undefined') return [];
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  const dropped = new Set<string>();
  for (const element of body.querySelectorAll('*')) {
    const tag = element.tagName.toLowerCase();
    const kept = KEPT[tag];
    if (!kept) {
      dropped.add(`<${tag}>`);
      continue;
    }
    for (const { name } of element.attributes) {
      if (!kept.includes(name) || (name === 'style' && !keptStyle(element)))
        dropped.add(`${name} on <${tag}>`);
    }
  }
  return [...dropped];
}
