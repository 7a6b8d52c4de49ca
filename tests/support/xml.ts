/**
 * A strict little XML reader for the site's feeds and sitemaps: it throws on anything that is not
 * well-formed (unclosed or crossed tags, a bare "&" or "<", unquoted or repeated attributes, a second
 * root) and returns the element tree with entities decoded, so tests can check the structure.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (not its children's), decoded. */
  text: string;
}

const NAME = String.raw`[A-Za-z_][\w.:-]*`;
const ATTRIBUTE = new RegExp(String.raw`\s+(${NAME})\s*=\s*(?:"([^"<]*)"|'([^'<]*)')`, 'y');
const TOKEN = new RegExp(
  String.raw`<\?xml\s[^?]*\?>|<!--(?:(?!--)[\s\S])*-->|<\/(${NAME})\s*>|<(${NAME})((?:\s+${NAME}\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|([^<]+)|<!\[CDATA\[([\s\S]*?)\]\]>`,
  'y',
);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** XML 1.0's characters: no control characters but tab, newline and carriage return. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function decode(text: string, at: number): string {
  if (NOT_XML.test(text)) throw new Error(`A character XML does not allow near offset ${at}`);
  return text.replace(/&([^;&\s]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new Error(`A bare "&" near offset ${at}`);
    if (name in ENTITIES) return ENTITIES[name] as string;
    const code = /^#x([0-9a-f]+)$/i.exec(name)?.[1] ?? /^#(\d+)$/.exec(name)?.[1];
    if (code === undefined) throw new Error(`Unknown entity &${name}; near offset ${at}`);
    return String.fromCodePoint(Number.parseInt(code, name.startsWith('#x') ? 16 : 10));
  });
}

function attributesOf(source: string, at: number): Record<string, string> {
  const attributes: Record<string, string> = {};
  ATTRIBUTE.lastIndex = 0;
  while (ATTRIBUTE.lastIndex < source.length) {
    const match = ATTRIBUTE.exec(source);
    if (!match) break;
    const [, name = '', double, single] = match;
    if (name in attributes) throw new Error(`Attribute ${name} twice near offset ${at}`);
    attributes[name] = decode(double ?? single ?? '', at);
  }
  return attributes;
}

export function parseXml(source: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(source);
    if (!match) throw new Error(`Not well-formed at offset ${at}: ${source.slice(at, at + 40)}`);
    const [token, closing, opening, attributes = '', selfClosing, text, characters] = match;
    if (token.startsWith('<?xml') && at !== 0) throw new Error('The XML declaration is not first');
    if (characters !== undefined) {
      // A CDATA section: its characters as they are (the feed library writes titles so).
      const current = stack.at(-1);
      if (!current) throw new Error(`CDATA outside the root element at offset ${at}`);
      current.text += characters;
    } else if (text !== undefined) {
      const current = stack.at(-1);
      if (current) current.text += decode(text, at);
      else if (text.trim() !== '') throw new Error(`Text outside the root element at offset ${at}`);
    } else if (opening !== undefined) {
      if (root && stack.length === 0) throw new Error(`A second root element at offset ${at}`);
      const element: XmlElement = {
        name: opening,
        attributes: attributesOf(attributes, at),
        children: [],
        text: '',
      };
      stack.at(-1)?.children.push(element);
      root ??= element;
      if (!selfClosing) stack.push(element);
    } else if (closing !== undefined) {
      const open = stack.pop();
      if (open?.name !== closing) throw new Error(`</${closing}> closes <${open?.name}> at offset ${at}`);
    }
  }
  if (!root) throw new Error('No root element');
  if (stack.length > 0) throw new Error(`<${stack.at(-1)?.name}> is never closed`);
  return root;
}

/** The child elements named `name`. */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child) => child.name === name);
}

/** The text of the first child named `name`, or undefined. */
export function childText(element: XmlElement, name: string): string | undefined {
  return childrenNamed(element, name)[0]?.text;
}
