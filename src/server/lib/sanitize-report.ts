import { type Declaration, parse } from 'postcss';
import sanitizeHtml from 'sanitize-html';
import type { ContentRemoval } from '../../shared/schemas/content-blocks.js';
import { CONTENT_HTML_OPTIONS, STYLE_RULES, sanitizeContentHtml } from './sanitize-html.js';

/**
 * What the sanitizer takes out of a block's Content, and why, for the admin's preview. The verdicts
 * are sanitize-html's own: a run of the site's options with a transform that only watches each tag
 * (the library then deletes refused attributes from the very object it returned), and each style
 * declaration put through the same options alone. The reasons are read from the same allow-list.
 */

const SHOWN_LENGTH = 40;
/** A page pasted from elsewhere can lose thousands of attributes: the first ones say enough. */
export const MAX_LISTED = 200;

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SHOWN_LENGTH ? `${flat.slice(0, SHOWN_LENGTH)}…` : flat;
}

const TAG_REASONS: Record<string, string> = {
  script: 'scripts never run on the site',
  noscript: 'scripts never run on the site',
  style: 'page-wide styles are not allowed: a block may only style its own text',
  link: 'page-wide styles are not allowed: a block may only style its own text',
  iframe: 'frames are not allowed: a block cannot embed another page',
  frame: 'frames are not allowed: a block cannot embed another page',
  frameset: 'frames are not allowed: a block cannot embed another page',
  object: 'plugins and embeds are not allowed',
  embed: 'plugins and embeds are not allowed',
  form: 'forms are not allowed: a block cannot collect input',
  input: 'forms are not allowed: a block cannot collect input',
  button: 'forms are not allowed: a block cannot collect input',
  select: 'forms are not allowed: a block cannot collect input',
  option: 'forms are not allowed: a block cannot collect input',
  textarea: 'forms are not allowed: a block cannot collect input',
  meta: 'page settings are not allowed in a block',
  base: 'page settings are not allowed in a block',
  svg: 'SVG drawings are not allowed (they can carry scripts)',
  math: 'MathML is not allowed',
};

const allowedTags = CONTENT_HTML_OPTIONS.allowedTags as string[];
const allowedAttributes = CONTENT_HTML_OPTIONS.allowedAttributes as Record<string, string[]>;
const allowedSchemes = CONTENT_HTML_OPTIONS.allowedSchemes as string[];
const nonTextTags = CONTENT_HTML_OPTIONS.nonTextTags ?? [];
const schemesByTag = (CONTENT_HTML_OPTIONS.allowedSchemesByTag ?? {}) as Record<string, string[]>;
type TagTransform = (tag: string, attribs: sanitizeHtml.Attributes) => sanitizeHtml.Tag;
const siteTransforms = (CONTENT_HTML_OPTIONS.transformTags ?? {}) as Record<string, TagTransform | undefined>;
const URL_ATTRIBUTES = new Set(sanitizeHtml.defaults.allowedSchemesAppliedToAttributes);

function tagRemoval(name: string, attribs: Record<string, string>): ContentRemoval {
  const address = attribs.src ?? attribs.href;
  const shownAddress =
    address === undefined ? '' : ` ${attribs.src === undefined ? 'href' : 'src'}="${shorten(address)}"`;
  const withContent = nonTextTags.includes(name) ? ' (removed with its content)' : '';
  return {
    what: `<${name}${shownAddress}>`,
    why: `${TAG_REASONS[name] ?? `<${name}> is not among the tags a block may use`}${withContent}`,
  };
}

function kept(tag: string): string[] {
  return [...(allowedAttributes['*'] ?? []), ...(allowedAttributes[tag] ?? [])];
}

function attributeReason(tag: string, name: string, value: string): string {
  if (name.startsWith('on')) return 'event handlers are removed: no script runs on the site';
  if (name === 'class')
    return "classes are removed: a block cannot use the site's own styles to restyle or cover the page";
  if (!kept(tag).includes(name)) return `<${tag}> keeps only these attributes: ${kept(tag).join(', ')}`;
  if (value.trim() === '') return 'an empty value is removed';
  if (name === 'srcset')
    return 'srcset is kept only when every image in it is from the media library (addresses starting /media/)';
  if (URL_ATTRIBUTES.has(name)) {
    const schemes = schemesByTag[tag] ?? allowedSchemes;
    return `addresses may only be ${schemes.map((scheme) => `${scheme}:`).join(', ')} or relative to the site`;
  }
  return 'its value is not allowed';
}

function declarationText(declaration: Declaration): string {
  return `${declaration.prop}: ${declaration.value}${declaration.important ? ' !important' : ''}`;
}

/** Whether the site's options keep this one declaration on this tag (a run's verdicts, by tag and text). */
function keepsDeclaration(verdicts: Map<string, boolean>, tag: string, text: string): boolean {
  const key = `${tag} ${text}`;
  let keeps = verdicts.get(key);
  if (keeps === undefined) {
    const attribute = text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    keeps = sanitizeHtml(`<${tag} style="${attribute}">x</${tag}>`, CONTENT_HTML_OPTIONS).includes(
      ' style="',
    );
    verdicts.set(key, keeps);
  }
  return keeps;
}

function declarationReason(property: string): string {
  const rule = STYLE_RULES[property.toLowerCase()];
  if (!rule) return `only these style properties are kept: ${Object.keys(STYLE_RULES).join(', ')}`;
  return rule.accepts.startsWith('colours') ? rule.accepts : `${property} accepts only ${rule.accepts}`;
}

function styleRemovals(verdicts: Map<string, boolean>, tag: string, style: string): ContentRemoval[] {
  const declarations: Declaration[] = [];
  try {
    parse(`${tag} {${style}}`).walkDecls((declaration) => {
      declarations.push(declaration);
    });
  } catch {
    return [{ what: `style="${shorten(style)}" on <${tag}>`, why: 'the style could not be read' }];
  }
  return declarations
    .filter((declaration) => !keepsDeclaration(verdicts, tag, declarationText(declaration)))
    .map((declaration) => ({
      what: `style ${declaration.prop}: ${shorten(declaration.value)} on <${tag}>`,
      why: declarationReason(declaration.prop),
    }));
}

interface Opened {
  tag: string;
  /** The attributes as written. */
  written: Record<string, string>;
  /** The object sanitize-html goes on with: it deletes the attributes it refuses from it. */
  left: Record<string, string>;
}

function removalsOf({ tag, written, left }: Opened, verdicts: Map<string, boolean>): ContentRemoval[] {
  if (!allowedTags.includes(tag)) return [tagRemoval(tag, written)];
  return Object.entries(written).flatMap(([name, value]): ContentRemoval[] => {
    if (name === 'style' && kept(tag).includes('style')) return styleRemovals(verdicts, tag, value);
    if (name in left) {
      return left[name] === value
        ? []
        : [{ what: `part of ${name} on <${tag}>`, why: 'some of its addresses are not allowed' }];
    }
    const shown =
      (URL_ATTRIBUTES.has(name) || name === 'srcset') && value.trim() ? `${name}="${shorten(value)}"` : name;
    return [{ what: `${shown} on <${tag}>`, why: attributeReason(tag, name, value) }];
  });
}

/** The HTML the site will serve for `content`, and what was taken out of it, in document order. */
export function explainSanitizing(content: string): { html: string; removed: ContentRemoval[] } {
  const opened: Opened[] = [];
  sanitizeHtml(content, {
    ...CONTENT_HTML_OPTIONS,
    transformTags: {
      // Every tag outside a discarded script or style: the attributes as written, then the site's
      // own transform of the tag (which may drop some, as a srcset from elsewhere), then the library.
      '*': (tag, attribs) => {
        const written = { ...attribs };
        const transformed = siteTransforms[tag]?.(tag, attribs) ?? { tagName: tag, attribs };
        const left = { ...transformed.attribs };
        opened.push({ tag, written, left });
        return { tagName: transformed.tagName, attribs: left };
      },
    },
  });
  const removed: ContentRemoval[] = [];
  const verdicts = new Map<string, boolean>();
  for (const tag of opened) {
    removed.push(...removalsOf(tag, verdicts));
    if (removed.length > MAX_LISTED) {
      removed.length = MAX_LISTED;
      removed.push({ what: '…', why: `more was removed: only the first ${MAX_LISTED} removals are listed` });
      break;
    }
  }
  return { html: sanitizeContentHtml(content), removed };
}
