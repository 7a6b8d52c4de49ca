import { type ReactNode, useEffect, useRef } from 'react';

interface ModalDialogProps {
  /** Shown as a modal while true, closed when it turns false. */
  open: boolean;
  /** The id of the element that names the dialog (its heading or question). */
  labelledBy: string;
  /** Escape: the owner decides whether and how to close. */
  onCancel: () => void;
  /** Its width, a Tailwind class, e.g. w-[min(24rem,calc(100vw-2rem))]. */
  widthClass: string;
  children: ReactNode;
}

/**
 * The native modal <dialog> every confirmation and form dialog uses: it traps focus, makes the page
 * behind it inert, and returns focus to the button that opened it when it closes.
 */
export function ModalDialog({ open, labelledBy, onCancel, widthClass, children }: ModalDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      className={`m-auto max-h-[calc(100dvh-2rem)] ${widthClass} rounded-lg p-0 shadow-xl backdrop:bg-slate-900/50`}
    >
      {children}
    </dialog>
  );
}
