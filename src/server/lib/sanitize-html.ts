import sanitizeHtml from 'sanitize-html';
import { COLOUR_PATTERNS, COLOUR_RULE } from './css-colours.js';

/** A style property a block may set: the values it accepts, and how the preview names them. */
interface StyleRule {
  values: RegExp[];
  accepts: string;
}

const COLOUR: StyleRule = { values: [...COLOUR_PATTERNS], accepts: COLOUR_RULE };

/**
 * The only style properties kept: text formatting. Nothing that places, sizes or layers an element
 * (position, z-index, width, margin…), so a block cannot cover or restyle the page around it.
 */
export const STYLE_RULES: Readonly<Record<string, StyleRule>> = {
  color: COLOUR,
  'background-color': COLOUR,
  'text-align': { values: [/^(left|right|center|justify)$/], accepts: 'left, right, center or justify' },
  'font-weight': { values: [/^(normal|bold|[1-9]00)$/], accepts: 'normal, bold or 100–900' },
  'font-size': { values: [/^\d{1,3}(px|em|rem|%)$/], accepts: 'a size in px, em, rem or %' },
  'font-style': { values: [/^(normal|italic)$/], accepts: 'normal or italic' },
  'text-decoration': {
    values: [/^(none|underline|line-through)$/],
    accepts: 'none, underline or line-through',
  },
};

/** A copy of the media library (src/server/modules/media), addressed relative to the site. */
const LIBRARY_ADDRESS = /^\/media\/(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9._\-/]+$/;

/**
 * Whether every candidate of a srcset is an image of the site's own media library. Candidates are
 * "address [descriptor]" separated by commas; the library's addresses hold no commas or spaces.
 */
export function isLibrarySrcset(srcset: string): boolean {
  const candidates = srcset.split(',').map((candidate) => candidate.trim());
  return candidates.every((candidate) => {
    const address = candidate.split(/\s+/)[0] ?? '';
    return LIBRARY_ADDRESS.test(address);
  });
}

/** srcset is kept only when it names library images alone: a block cannot load images from elsewhere by it. */
function withLibrarySrcset(tagName: string, attribs: sanitizeHtml.Attributes) {
  if (attribs.srcset === undefined || isLibrarySrcset(attribs.srcset)) return { tagName, attribs };
  const { srcset: _dropped, ...rest } = attribs;
  return { tagName, attribs: rest };
}

/**
 * Content blocks are shown on the public page as HTML, so what an admin saves is cleaned:
 * formatting, links, images and tables stay; scripts, event handlers, javascript: URLs, classes
 * (the site's own utility classes could make a block cover the page) and unsafe style values go.
 * The preview (sanitize-report.ts) explains a run of these same options.
 */
export const CONTENT_HTML_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'h1',
    'h2',
    'span',
    'del',
    'ins',
    'sup',
    'sub',
    'u',
    'font',
    'center',
    'picture',
    'source',
  ],
  allowedAttributes: {
    '*': ['style', 'title', 'dir', 'lang', 'align'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading', 'decoding'],
    source: ['srcset', 'type', 'sizes', 'media', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    font: ['color', 'size'],
  },
  allowedStyles: {
    '*': Object.fromEntries(Object.entries(STYLE_RULES).map(([property, rule]) => [property, rule.values])),
  },
  // A void element, written as one (sanitize-html's list lacks it).
  selfClosing: [...sanitizeHtml.defaults.selfClosing, 'source'],
  // Removed with their content (sanitize-html's own default, named so the preview can say so).
  nonTextTags: ['script', 'style', 'textarea', 'option'],
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
    img: withLibrarySrcset,
    source: withLibrarySrcset,
  },
};

/** A block's Content as the site stores and serves it: the one sanitizer of block HTML. */
export function sanitizeContentHtml(html: string): string {
  return sanitizeHtml(html, CONTENT_HTML_OPTIONS).trim();
}

/**
 * A block's Content as a public page shows it: sanitized, with its images loaded lazily, but for a
 * block at the top of a page (the home banner), whose images the visitor sees first.
 */
export function publicContentHtml(html: string, aboveTheFold: boolean): string {
  const img = (tagName: string, attribs: sanitizeHtml.Attributes) => {
    const kept = withLibrarySrcset(tagName, attribs).attribs;
    const { loading: _loading, ...rest } = kept;
    return { tagName, attribs: aboveTheFold ? rest : { ...rest, loading: 'lazy' } };
  };
  return sanitizeHtml(html, {
    ...CONTENT_HTML_OPTIONS,
    transformTags: { ...CONTENT_HTML_OPTIONS.transformTags, img },
  }).trim();
}
