import { useCallback, useState } from 'react';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { PageTitle } from '../../components/ui/card.js';
import { type Notice, NoticeAlert, successNotice } from '../../components/ui/notice.js';
import { GhadiForm } from './ghadi-form.js';
import { GhadiList } from './ghadi-list.js';

export function GhadisPage() {
  const [editing, setEditing] = useState<GhadiRecord | null>(null);
  // Bumped after a save or Cancel so the add form mounts afresh, empty.
  const [formKey, setFormKey] = useState(0);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [reveal, setReveal] = useState<number | null>(null);
  const onRevealed = useCallback(() => setReveal(null), []);

  const toAddMode = () => {
    setEditing(null);
    setFormKey((key) => key + 1);
  };

  return (
    <div className="space-y-6">
      <PageTitle>Ghadi</PageTitle>
      <NoticeAlert notice={notice} onDismiss={() => setNotice(null)} />
      <GhadiForm
        key={editing ? `edit-${editing._id}` : `add-${formKey}`}
        editing={editing}
        onSaved={(ghadi, message) => {
          setNotice(successNotice(message));
          setReveal(ghadi.GID);
          toAddMode();
        }}
        onFailed={setNotice}
        onCancel={() => {
          setNotice(null);
          toAddMode();
        }}
      />
      <GhadiList
        editingId={editing?._id}
        reveal={reveal}
        onRevealed={onRevealed}
        onEdit={(ghadi) => {
          setNotice(null);
          setEditing(ghadi);
        }}
        onDeleted={(ghadi) => {
          if (editing?._id === ghadi._id) toAddMode();
          setNotice(successNotice('Ghadi deleted.'));
        }}
        onFailed={setNotice}
      />
    </div>
  );
}
