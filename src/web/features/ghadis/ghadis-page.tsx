import { useCallback, useState } from 'react';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { PageTitle } from '../../components/ui/card.js';
import { NoticeAlert } from '../../components/ui/notice.js';
import { useEditMode } from '../../hooks/use-edit-mode.js';
import { GhadiForm } from './ghadi-form.js';
import { GhadiList } from './ghadi-list.js';

export function GhadisPage() {
  const mode = useEditMode<GhadiRecord>('Ghadi deleted.');
  // The list turns to the page where a just-saved ghadi sorts.
  const [reveal, setReveal] = useState<number | null>(null);
  const onRevealed = useCallback(() => setReveal(null), []);

  return (
    <div className="space-y-6">
      <PageTitle>Ghadi</PageTitle>
      <NoticeAlert notice={mode.notice} onDismiss={mode.dismissNotice} />
      <GhadiForm
        key={mode.formKey}
        editing={mode.editing}
        onSaved={(ghadi, message) => {
          setReveal(ghadi.GID);
          mode.saved(message);
        }}
        onFailed={mode.showFailure}
        onCancel={mode.cancel}
      />
      <GhadiList
        editingId={mode.editing?._id}
        reveal={reveal}
        onRevealed={onRevealed}
        onEdit={mode.edit}
        onDeleted={mode.deleted}
        onFailed={mode.showFailure}
      />
    </div>
  );
}
