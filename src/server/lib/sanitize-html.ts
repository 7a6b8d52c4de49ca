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
  ],
  allowedAttributes: {
    '*': ['style', 'title', 'dir', 'lang', 'align'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height', 'loading'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    font: ['color', 'size'],
  },
  allowedStyles: {
    '*': Object.fromEntries(Object.entries(STYLE_RULES).map(([property, rule]) => [property, rule.values])),
  },
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
  },
};

/** A block's Content as the site stores and serves it: the one sanitizer of block HTML. */
export function sanitizeContentHtml(html: string): string {
  return sanitizeHtml(html, CONTENT_HTML_OPTIONS).trim();
}
