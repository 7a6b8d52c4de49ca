import { EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useState } from 'react';
import { mediaImageHtml } from '../../../shared/media-markup.js';
import { BLOCK_EDITOR_EXTENSIONS } from './block-editor-extensions.js';
import { BlockEditorToolbar } from './block-editor-toolbar.js';
import { LinkDialog } from './link-dialog.js';
import { MediaPickerDialog } from './media-picker-dialog.js';

const EDITABLE_CLASSES =
  'content-html min-h-48 max-h-[70vh] overflow-y-auto rounded-b-md border border-slate-300 bg-white px-3 py-2 text-slate-900 focus:border-indigo-500 focus:outline-2 focus:outline-indigo-500 aria-[invalid=true]:border-red-500 [&_.selectedCell]:bg-indigo-50 [&_img.ProseMirror-selectednode]:outline-2 [&_img.ProseMirror-selectednode]:outline-indigo-500';

/** What the Content field hands the editor to focus it once it exists. */
export interface EditorHandle {
  /** False when the editor is gone (replaced), so that the focus waits for the next one. */
  focus: () => boolean;
}

export interface BlockEditorProps {
  /** The Content when the editor opens; later changes come from the editor itself. */
  initialValue: string;
  onChange: (html: string) => void;
  onBlur: () => void;
  labelId: string;
  describedBy: string | undefined;
  invalid: boolean;
  /** Called with the editor's handle once it exists, and null when it goes. */
  onReady: (handle: EditorHandle | null) => void;
}

/**
 * The visual editor of a block's Content (Tiptap), loaded on demand: the admin's other screens and
 * the public pages never download it. Opening a block does not rewrite its HTML: the Content changes
 * only when the admin edits, so a block saved unedited keeps its markup as it was.
 */
export default function BlockEditor({
  initialValue,
  onChange,
  onBlur,
  labelId,
  describedBy,
  invalid,
  onReady,
}: BlockEditorProps) {
  const [dialog, setDialog] = useState<'link' | 'image' | null>(null);
  const attributes = {
    role: 'textbox',
    'aria-multiline': 'true',
    'aria-labelledby': labelId,
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(invalid ? { 'aria-invalid': 'true' } : {}),
    tabindex: '0',
    // The site's own block styles (content-html), so that what is written looks as it will.
    class: EDITABLE_CLASSES,
  };
  const editor = useEditor({
    extensions: BLOCK_EDITOR_EXTENSIONS,
    content: initialValue,
    editorProps: { attributes },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : current.getHTML()),
    onBlur: () => onBlur(),
  });

  // The editor reads its attributes once: a validation error shown later is set on it here.
  const attributesKey = JSON.stringify(attributes);
  useEffect(() => {
    editor.setOptions({ editorProps: { attributes: JSON.parse(attributesKey) as Record<string, string> } });
  }, [editor, attributesKey]);

  useEffect(() => {
    // React may hide and show the editor again while its chunk settles (Suspense), and Tiptap then
    // makes a new one: only a live editor is handed over; its successor runs this effect again.
    if (editor.isDestroyed) return;
    onReady({ focus: () => !editor.isDestroyed && editor.commands.focus() });
    return () => onReady(null);
  }, [editor, onReady]);

  const linkAt = (editor.getAttributes('link').href as string | undefined) ?? '';
  const closeDialog = () => setDialog(null);
  return (
    <div>
      <BlockEditorToolbar
        editor={editor}
        onLink={() => setDialog('link')}
        onImage={() => setDialog('image')}
      />
      <EditorContent editor={editor} />
      {dialog === 'link' && (
        <LinkDialog
          open
          current={linkAt}
          onApply={(href) => {
            const chain = editor.chain().focus();
            if (editor.state.selection.empty && !editor.isActive('link')) {
              chain
                .insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] })
                .run();
            } else {
              chain.extendMarkRange('link').setLink({ href }).run();
            }
            closeDialog();
          }}
          onRemove={() => {
            editor.chain().focus().extendMarkRange('link').unsetLink().run();
            closeDialog();
          }}
          onClose={closeDialog}
        />
      )}
      <MediaPickerDialog
        open={dialog === 'image'}
        onInsert={(record, alt) => {
          editor.chain().focus().insertContent(mediaImageHtml(record, alt)).run();
          closeDialog();
        }}
        onClose={closeDialog}
      />
    </div>
  );
}
