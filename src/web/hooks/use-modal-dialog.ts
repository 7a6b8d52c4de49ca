import { type RefObject, useEffect, useRef } from 'react';

/**
 * A native <dialog> shown as a modal while `open` holds (focus trapped, Escape handled by the
 * browser), closed when it stops holding. Returns the ref to put on the <dialog>.
 */
export function useModalDialog(open: boolean): RefObject<HTMLDialogElement | null> {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return dialog;
}
