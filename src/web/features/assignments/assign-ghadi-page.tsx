import { useState } from 'react';
import { PageTitle } from '../../components/ui/card.js';
import { type Notice, NoticeAlert, successNotice } from '../../components/ui/notice.js';
import { AssignForm } from './assign-form.js';
import { AssignmentList } from './assignment-list.js';

export function AssignGhadiPage() {
  const [notice, setNotice] = useState<Notice | null>(null);

  return (
    <div className="space-y-6">
      <PageTitle>Assign Ghadi</PageTitle>
      <NoticeAlert notice={notice} onDismiss={() => setNotice(null)} />
      <AssignForm onAssigned={(message) => setNotice(successNotice(message))} onFailed={setNotice} />
      <AssignmentList
        onDeleted={() => setNotice(successNotice('Assignment deleted.'))}
        onFailed={setNotice}
      />
    </div>
  );
}
