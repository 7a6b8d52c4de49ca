import { type Editor, useEditorState } from '@tiptap/react';
import type { ReactNode } from 'react';

interface ToolProps {
  label: string;
  /** Whether the mark or block is on where the cursor is; absent for plain actions. */
  pressed?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}

/** A toolbar button: its accessible name is `label`; the glyph inside is for the eye only. */
function Tool({ label, pressed, disabled, onClick, children }: ToolProps) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      // Keeps the editor's selection: a click would otherwise move focus, and the command act on nothing.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
      className="inline-flex h-9 min-w-9 items-center justify-center rounded px-2 text-sm font-medium text-slate-800 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:text-slate-400 aria-pressed:bg-indigo-100 aria-pressed:text-indigo-900"
    >
      <span aria-hidden="true">{children}</span>
    </button>
  );
}

function Group({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-0.5 border-slate-300 pr-1 [&+&]:border-l [&+&]:pl-1">
      {children}
    </div>
  );
}

/** Three bars, each line of an alignment icon: where its left and right ends sit. */
const ALIGN_LINES = {
  left: [
    [3, 21],
    [3, 15],
    [3, 18],
  ],
  center: [
    [3, 21],
    [6, 18],
    [4, 20],
  ],
  right: [
    [3, 21],
    [9, 21],
    [6, 21],
  ],
  justify: [
    [3, 21],
    [3, 21],
    [3, 21],
  ],
} as const;

function AlignIcon({ align }: { align: keyof typeof ALIGN_LINES }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="h-4 w-4"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path
        d={ALIGN_LINES[align].map(([from, to], row) => `M${from} ${6 + row * 6}h${to - from}`).join('')}
      />
    </svg>
  );
}

interface BlockEditorToolbarProps {
  editor: Editor;
  onLink: () => void;
  onImage: () => void;
}

/** The visual editor's formatting buttons; a pressed button shows what is on at the cursor. */
export function BlockEditorToolbar({ editor, onLink, onImage }: BlockEditorToolbarProps) {
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      underline: current.isActive('underline'),
      h2: current.isActive('heading', { level: 2 }),
      h3: current.isActive('heading', { level: 3 }),
      bullets: current.isActive('bulletList'),
      numbers: current.isActive('orderedList'),
      link: current.isActive('link'),
      table: current.isActive('table'),
      align: (['left', 'center', 'right', 'justify'] as const).find((align) =>
        current.isActive({ textAlign: align }),
      ),
      canUndo: current.can().undo(),
      canRedo: current.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  return (
    <div
      role="toolbar"
      aria-label="Formatting"
      className="flex flex-wrap items-center gap-y-1 rounded-t-md border border-b-0 border-slate-300 bg-slate-50 p-1"
    >
      <Group>
        <Tool label="Heading 2" pressed={state.h2} onClick={() => chain().toggleHeading({ level: 2 }).run()}>
          H2
        </Tool>
        <Tool label="Heading 3" pressed={state.h3} onClick={() => chain().toggleHeading({ level: 3 }).run()}>
          H3
        </Tool>
      </Group>
      <Group>
        <Tool label="Bold" pressed={state.bold} onClick={() => chain().toggleBold().run()}>
          <b>B</b>
        </Tool>
        <Tool label="Italic" pressed={state.italic} onClick={() => chain().toggleItalic().run()}>
          <i className="font-serif">I</i>
        </Tool>
        <Tool label="Underline" pressed={state.underline} onClick={() => chain().toggleUnderline().run()}>
          <u>U</u>
        </Tool>
        <Tool label="Link" pressed={state.link} onClick={onLink}>
          Link
        </Tool>
      </Group>
      <Group>
        <Tool label="Bulleted list" pressed={state.bullets} onClick={() => chain().toggleBulletList().run()}>
          •≡
        </Tool>
        <Tool label="Numbered list" pressed={state.numbers} onClick={() => chain().toggleOrderedList().run()}>
          1.≡
        </Tool>
      </Group>
      <Group>
        {(['left', 'center', 'right', 'justify'] as const).map((align) => (
          <Tool
            key={align}
            label={`Align ${align}`}
            pressed={state.align === align}
            onClick={() => chain().setTextAlign(align).run()}
          >
            <AlignIcon align={align} />
          </Tool>
        ))}
      </Group>
      <Group>
        <Tool label="Image from the library" onClick={onImage}>
          Image
        </Tool>
        <Tool
          label="Insert table"
          disabled={state.table}
          onClick={() => chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run()}
        >
          Table
        </Tool>
        {state.table && (
          <>
            <Tool label="Add row" onClick={() => chain().addRowAfter().run()}>
              +row
            </Tool>
            <Tool label="Add column" onClick={() => chain().addColumnAfter().run()}>
              +col
            </Tool>
            <Tool label="Delete row" onClick={() => chain().deleteRow().run()}>
              −row
            </Tool>
            <Tool label="Delete column" onClick={() => chain().deleteColumn().run()}>
              −col
            </Tool>
            <Tool label="Delete table" onClick={() => chain().deleteTable().run()}>
              −table
            </Tool>
          </>
        )}
      </Group>
      <Group>
        <Tool label="Undo" disabled={!state.canUndo} onClick={() => chain().undo().run()}>
          ↶
        </Tool>
        <Tool label="Redo" disabled={!state.canRedo} onClick={() => chain().redo().run()}>
          ↷
        </Tool>
      </Group>
    </div>
  );
}
