import { useId, useState } from 'react';
import { createPortal } from 'react-dom';
import { Button } from '../../components/ui/button.js';
import { TextField } from '../../components/ui/field.js';
import { ModalDialog } from '../../components/ui/modal-dialog.js';

interface LinkDialogProps {
  open: boolean;
  /** The address of the link at the cursor, or '' for a new one. */
  current: string;
  onApply: (href: string) => void;
  onRemove: () => void;
  onClose: () => void;
}

/** Sets the link on the selected text: an address the site keeps (http(s), mailto:, tel: or a path). */
export function LinkDialog({ open, current, onApply, onRemove, onClose }: LinkDialogProps) {
  const titleId = useId();
  const [href, setHref] = useState(current);
  const [error, setError] = useState<string | undefined>();
  const apply = () => {
    const address = href.trim();
    if (!/^(https?:\/\/|mailto:|tel:|\/|#)/i.test(address)) {
      setError('Start with https://, http://, mailto:, tel: or / for a page of this site.');
      return;
    }
    onApply(address);
  };
  // Outside the block's form in the document: forms do not nest.
  return createPortal(
    <ModalDialog
      open={open}
      labelledBy={titleId}
      onCancel={onClose}
      widthClass="w-[min(28rem,calc(100vw-2rem))]"
    >
      <form
        className="space-y-4 p-5"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          // The dialog sits inside the block's form: its submit must not save the block.
          event.stopPropagation();
          apply();
        }}
      >
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          Link
        </h2>
        <TextField
          label="Link address"
          type="url"
          inputMode="url"
          autoCapitalize="none"
          spellCheck={false}
          value={href}
          error={error}
          onChange={(event) => {
            setHref(event.target.value);
            setError(undefined);
          }}
          autoFocus
        />
        <div className="flex flex-wrap justify-end gap-2">
          {current && (
            <Button variant="secondary" className="mr-auto" onClick={onRemove}>
              Remove link
            </Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">Apply</Button>
        </div>
      </form>
    </ModalDialog>,
    document.body,
  );
}
