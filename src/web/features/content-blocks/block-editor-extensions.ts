import { type Extensions, mergeAttributes } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import { Table, TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import TextAlign from '@tiptap/extension-text-align';
import StarterKit from '@tiptap/starter-kit';

/** The heading levels the editor keeps; the toolbar offers the two a block's own headings use. */
export const HEADING_LEVELS = [1, 2, 3, 4] as const;

/**
 * Library images carry srcset, sizes and loading (and pasted ones decoding) (src/shared/media-markup.ts), which Tiptap's image
 * would drop. Inline, so that an image inside a paragraph stays there; data: addresses, which the
 * site allows, are kept too.
 */
const LibraryImage = Image.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      srcset: { default: null },
      sizes: { default: null },
      loading: { default: null },
      decoding: { default: null },
    };
  },
}).configure({ inline: true, allowBase64: true });

/**
 * Tiptap writes a <colgroup> and a min-width style on every table for its column resizing; the site
 * removes both, so every table would be listed as losing them. A table is written plain instead.
 */
const PlainTable = Table.extend({
  renderHTML({ HTMLAttributes }) {
    return ['table', mergeAttributes(this.options.HTMLAttributes, HTMLAttributes), ['tbody', 0]];
  },
}).configure({ resizable: false });

/**
 * What the visual editor knows: the formatting the site keeps (server/lib/sanitize-html.ts) and no
 * more. Links open in the same tab; the trailing empty paragraph Tiptap adds after a table or image
 * would be saved into the block, so it is off.
 */
export const BLOCK_EDITOR_EXTENSIONS: Extensions = [
  StarterKit.configure({
    heading: { levels: [...HEADING_LEVELS] },
    link: { openOnClick: false, HTMLAttributes: { target: null, rel: null } },
    trailingNode: false,
  }),
  TextAlign.configure({ types: ['heading', 'paragraph'] }),
  LibraryImage,
  PlainTable,
  TableRow,
  TableHeader,
  TableCell,
];
