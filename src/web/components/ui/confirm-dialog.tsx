import { Button } from './button.js';
import { ModalDialog } from './modal-dialog.js';

interface ConfirmDialogProps {
  /** The question; the dialog is open while it is set. */
  message: string | null;
  confirmLabel?: string;
  /** The confirm button's text while the action runs. */
  busyLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * An in-page confirmation. The native modal <dialog> traps focus, makes the page behind it inert,
 * closes on Escape and returns focus to the button that opened it.
 */
export function ConfirmDialog({
  message,
  confirmLabel = 'Delete',
  busyLabel = 'Deleting…',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <ModalDialog
      open={Boolean(message)}
      labelledBy="confirm-dialog-message"
      onCancel={onCancel}
      widthClass="w-[min(24rem,calc(100vw-2rem))]"
    >
      <div className="space-y-4 p-5">
        <p id="confirm-dialog-message" className="text-base font-medium text-slate-900">
          {message}
        </p>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onCancel} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={busy}>
            {busy ? busyLabel : confirmLabel}
          </Button>
        </div>
      </div>
    </ModalDialog>
  );
}
