import type { UserRecord } from '../../../shared/schemas/users.js';
import { PageTitle } from '../../components/ui/card.js';
import { NoticeAlert } from '../../components/ui/notice.js';
import { useEditMode } from '../../hooks/use-edit-mode.js';
import { AgentForm } from './agent-form.js';
import { AgentList } from './agent-list.js';

export function AgentsPage() {
  const mode = useEditMode<UserRecord>('Agent deleted.');
  return (
    <div className="space-y-6">
      <PageTitle>Agents</PageTitle>
      <NoticeAlert notice={mode.notice} onDismiss={mode.dismissNotice} />
      <AgentForm
        key={mode.formKey}
        editing={mode.editing}
        onSaved={mode.saved}
        onFailed={mode.showFailure}
        onCancel={mode.cancel}
      />
      <AgentList
        editingId={mode.editing?._id}
        onEdit={mode.edit}
        onDeleted={mode.deleted}
        onFailed={mode.showFailure}
      />
    </div>
  );
}
