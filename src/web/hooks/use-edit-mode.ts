import { useState } from 'react';
import { type Notice, successNotice } from '../components/ui/notice.js';

/**
 * The add/edit rhythm of the admin screens (spec section 4): Edit fills the form, Cancel or a
 * successful save returns it to add mode (mounted afresh, empty), and one notice reports the
 * latest outcome.
 */
export function useEditMode<T extends { _id: string }>(deletedMessage: string) {
  const [editing, setEditing] = useState<T | null>(null);
  // Bumped after a save or Cancel so the add form mounts afresh, empty.
  const [addKey, setAddKey] = useState(0);
  const [notice, setNotice] = useState<Notice | null>(null);

  const toAddMode = () => {
    setEditing(null);
    setAddKey((key) => key + 1);
  };

  return {
    notice,
    dismissNotice: () => setNotice(null),
    showFailure: setNotice,
    /** Remounts the form whenever the mode or the edited record changes. */
    formKey: editing ? `edit-${editing._id}` : `add-${addKey}`,
    editing,
    saved: (message: string) => {
      setNotice(successNotice(message));
      toAddMode();
    },
    cancel: () => {
      setNotice(null);
      toAddMode();
    },
    edit: (record: T) => {
      setNotice(null);
      setEditing(record);
    },
    deleted: (record: T) => {
      if (editing?._id === record._id) toAddMode();
      setNotice(successNotice(deletedMessage));
    },
  };
}
