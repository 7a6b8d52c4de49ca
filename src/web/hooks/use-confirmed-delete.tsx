import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../components/ui/confirm-dialog.js';
import { failureNotice, type Notice } from '../components/ui/notice.js';

interface ConfirmedDeleteOptions<T> {
  /** The delete mutation, called with the record's _id. */
  remove: UseMutationResult<unknown, Error, string>;
  /** The spec's confirmation question. */
  question: string;
  /** The spec's failure text; the server's reason is shown beneath it. */
  failureText: string;
  onDeleted: (record: T) => void;
  onFailed: (notice: Notice) => void;
}

/** Delete after the spec's confirmation: `ask(record)` opens the dialog that `dialog` renders. */
export function useConfirmedDelete<T extends { _id: string }>(options: ConfirmedDeleteOptions<T>) {
  const [pending, setPending] = useState<T | null>(null);

  const confirm = async () => {
    if (!pending) return;
    try {
      await options.remove.mutateAsync(pending._id);
      options.onDeleted(pending);
    } catch (error) {
      options.onFailed(failureNotice(options.failureText, error));
    } finally {
      setPending(null);
    }
  };

  const dialog = (
    <ConfirmDialog
      message={pending ? options.question : null}
      busy={options.remove.isPending}
      onConfirm={confirm}
      onCancel={() => setPending(null)}
    />
  );
  return { ask: setPending, dialog };
}
