import type { ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import { PageTitle } from '../../components/ui/card.js';
import { NoticeAlert } from '../../components/ui/notice.js';
import { useEditMode } from '../../hooks/use-edit-mode.js';
import { ContentBlockForm } from './content-block-form.js';
import { ContentBlockList } from './content-block-list.js';

export function ContentBlocksPage() {
  const mode = useEditMode<ContentBlockRecord>('Deleted successfully.');
  return (
    <div className="space-y-6">
      <PageTitle>Content Blocks</PageTitle>
      <NoticeAlert notice={mode.notice} onDismiss={mode.dismissNotice} />
      <ContentBlockForm
        key={mode.formKey}
        editing={mode.editing}
        onSaved={mode.saved}
        onFailed={mode.showFailure}
        onCancel={mode.cancel}
      />
      <ContentBlockList
        editingId={mode.editing?._id}
        onEdit={mode.edit}
        onDeleted={mode.deleted}
        onFailed={mode.showFailure}
      />
    </div>
  );
}
