import { useState } from 'react';
import { PageTitle } from '../../components/ui/card.js';
import { type Notice, NoticeAlert, successNotice } from '../../components/ui/notice.js';
import { HolidayForm } from './holiday-form.js';
import { HolidayList } from './holiday-list.js';

/**
 * The dates ghadis do not run besides their weekly off-days: on them the board says "Holiday" and
 * agents may not declare (admins still may).
 */
export function HolidaysPage() {
  const [notice, setNotice] = useState<Notice | null>(null);
  // Bumped after an add: the form mounts afresh, its date back to today.
  const [formKey, setFormKey] = useState(0);
  return (
    <div className="space-y-6">
      <PageTitle>Holidays</PageTitle>
      <NoticeAlert notice={notice} onDismiss={() => setNotice(null)} />
      <HolidayForm
        key={formKey}
        onAttempt={() => setNotice(null)}
        onAdded={() => {
          setNotice(successNotice('Holiday added.'));
          setFormKey((key) => key + 1);
        }}
      />
      <HolidayList onDeleted={() => setNotice(successNotice('Holiday deleted.'))} onFailed={setNotice} />
    </div>
  );
}
