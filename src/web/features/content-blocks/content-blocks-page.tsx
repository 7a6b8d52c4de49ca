import { useState } from 'react';
import type { ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import { PageTitle } from '../../components/ui/card.js';
import { type Notice, NoticeAlert, successNotice } from '../../components/ui/notice.js';
import { ContentBlockForm } from './content-block-form.js';
import { ContentBlockList } from './content-block-list.js';

export function ContentBlocksPage() {
  const [editing, setEditing] = useState<ContentBlockRecord | null>(null);
  // Bumped after a save or Cancel so the add form mounts afresh, empty.
  const [formKey, setFormKey] = useState(0);
  const [notice, setNotice] = useState<Notice | null>(null);

  const toAddMode = () => {
    setEditing(null);
    setFormKey((key) => key + 1);
  };

  return (
    <div className="space-y-6">
      <PageTitle>Content Blocks</PageTitle>
      <NoticeAlert notice={notice} onDismiss={() => setNotice(null)} />
      <ContentBlockForm
        key={editing ? `edit-${editing._id}` : `add-${formKey}`}
        editing={editing}
        onSaved={(message) => {
          setNotice(successNotice(message));
          toAddMode();
        }}
        onFailed={setNotice}
        onCancel={() => {
          setNotice(null);
          toAddMode();
        }}
      />
      <ContentBlockList
        editingId={editing?._id}
        onEdit={(block) => {
          setNotice(null);
          setEditing(block);
        }}
        onDeleted={(block) => {
          if (editing?._id === block._id) toAddMode();
          setNotice(successNotice('Deleted successfully.'));
        }}
        onFailed={setNotice}
      />
    </div>
  );
}
