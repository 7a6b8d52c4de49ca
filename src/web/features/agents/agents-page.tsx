import { useState } from 'react';
import type { UserRecord } from '../../../shared/schemas/users.js';
import { PageTitle } from '../../components/ui/card.js';
import { type Notice, NoticeAlert, successNotice } from '../../components/ui/notice.js';
import { AgentForm } from './agent-form.js';
import { AgentList } from './agent-list.js';

export function AgentsPage() {
  const [editing, setEditing] = useState<UserRecord | null>(null);
  // Bumped after a save or Cancel so the add form mounts afresh, empty.
  const [formKey, setFormKey] = useState(0);
  const [notice, setNotice] = useState<Notice | null>(null);

  const toAddMode = () => {
    setEditing(null);
    setFormKey((key) => key + 1);
  };

  return (
    <div className="space-y-6">
      <PageTitle>Agents</PageTitle>
      <NoticeAlert notice={notice} onDismiss={() => setNotice(null)} />
      <AgentForm
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
      <AgentList
        editingId={editing?._id}
        onEdit={(user) => {
          setNotice(null);
          setEditing(user);
        }}
        onDeleted={(user) => {
          if (editing?._id === user._id) toAddMode();
          setNotice(successNotice('Agent deleted.'));
        }}
        onFailed={setNotice}
      />
    </div>
  );
}
