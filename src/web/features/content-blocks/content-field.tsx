import { lazy, type Ref, Suspense, useCallback, useId, useImperativeHandle, useRef, useState } from 'react';
import { mediaImageHtml } from '../../../shared/media-markup.js';
import { Spinner } from '../../components/ui/states.js';
import type { EditorHandle } from './block-editor.js';
import { markupTheEditorDrops } from './editor-markup-check.js';
import { MediaPickerDialog } from './media-picker-dialog.js';

// Tiptap and ProseMirror are a large download: fetched only when a visual editor is first shown.
const BlockEditor = lazy(() => import('./block-editor.js'));

/** The view an admin last chose, kept for the next block: some prefer to write the HTML. */
const VIEW_KEY = 'content-block-view';
type View = 'visual' | 'html';

function storedView(): View {
  try {
    return localStorage.getItem(VIEW_KEY) === 'html' ? 'html' : 'visual';
  } catch {
    return 'visual';
  }
}

interface ContentFieldProps {
  value: string;
  onChange: (html: string) => void;
  onBlur: () => void;
  error: string | undefined;
  /** react-hook-form's handle, so that setFocus('Content') reaches the editor or the textarea. */
  ref?: Ref<{ focus: () => void }>;
}

/**
 * A block's Content: the visual editor, or its HTML source in a textarea for those who want it. Both
 * write the same form value, which the form's schema validates.
 */
export function ContentField({ value, onChange, onBlur, error, ref }: ContentFieldProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hintId, error ? errorId : ''].filter(Boolean).join(' ');
  // Markup the editor cannot keep is found once, on the Content the block opened with.
  const [dropped] = useState(() => markupTheEditorDrops(value));
  const [view, setView] = useState<View>(() => (dropped.length > 0 ? 'html' : storedView()));
  const [picking, setPicking] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const editor = useRef<EditorHandle | null>(null);
  // A focus asked for before the editor's code has loaded is given to it once it exists.
  const focusWanted = useRef(false);

  useImperativeHandle(ref, () => ({
    focus: () => {
      if (view === 'html') textarea.current?.focus();
      else if (!editor.current?.focus()) focusWanted.current = true;
    },
  }));

  const onReady = useCallback((handle: EditorHandle | null) => {
    editor.current = handle;
    if (handle && focusWanted.current && handle.focus()) focusWanted.current = false;
  }, []);

  const switchView = () => {
    const next = view === 'html' ? 'visual' : 'html';
    setView(next);
    try {
      localStorage.setItem(VIEW_KEY, next);
    } catch {
      // Storage refused (private mode): the choice lasts for this page only.
    }
  };

  /** In the HTML view an image goes where the cursor is. */
  const insertIntoSource = (html: string) => {
    const element = textarea.current;
    const at = element?.selectionStart ?? value.length;
    const end = element?.selectionEnd ?? at;
    onChange(`${value.slice(0, at)}${html}${value.slice(end)}`);
  };

  return (
    <div className="space-y-1">
      <div className="flex min-h-8 flex-wrap items-end justify-between gap-2">
        {view === 'html' ? (
          <label id={labelId} htmlFor={`${id}-source`} className="block text-sm font-medium text-slate-700">
            Content
          </label>
        ) : (
          <span id={labelId} className="block text-sm font-medium text-slate-700">
            Content
          </span>
        )}
        <div className="flex gap-1">
          {view === 'html' && (
            <button
              type="button"
              onClick={() => setPicking(true)}
              className="rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              Insert image
            </button>
          )}
          <button
            type="button"
            aria-pressed={view === 'html'}
            onClick={switchView}
            className="rounded-md border border-slate-300 bg-white px-2.5 py-1 font-mono text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600 aria-pressed:border-indigo-600 aria-pressed:bg-indigo-50 aria-pressed:text-indigo-900"
          >
            HTML source
          </button>
        </div>
      </div>
      {dropped.length > 0 && (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          This block uses markup the visual editor does not keep ({dropped.join(', ')}): edit it here, in the
          HTML, to keep it.
        </p>
      )}
      {view === 'html' ? (
        <textarea
          ref={textarea}
          id={`${id}-source`}
          rows={14}
          spellCheck={false}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
          className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-500 aria-[invalid=true]:border-red-500"
        />
      ) : (
        <Suspense fallback={<Spinner label="Loading the editor…" />}>
          <BlockEditor
            initialValue={value}
            onChange={onChange}
            onBlur={onBlur}
            labelId={labelId}
            describedBy={describedBy}
            invalid={Boolean(error)}
            onReady={onReady}
          />
        </Suspense>
      )}
      <p id={hintId} className="text-xs text-slate-600">
        Shown on the site as in the preview: scripts and other unsafe parts are removed when it is saved.
      </p>
      {error && (
        <p id={errorId} className="text-sm text-red-600">
          {error}
        </p>
      )}
      {view === 'html' && (
        <MediaPickerDialog
          open={picking}
          onInsert={(record, alt) => {
            insertIntoSource(mediaImageHtml(record, alt));
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      )}
    </div>
  );
}
