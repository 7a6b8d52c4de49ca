import { useState } from 'react';
import type { ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import { PageTitle } from '../../components/ui/card.js';
import { NoticeAlert } from '../../components/ui/notice.js';
import { useEditMode } from '../../hooks/use-edit-mode.js';
import { ContentBlockForm } from './content-block-form.js';
import { ContentBlockList } from './content-block-list.js';
import { type NewBlock, SiteBlocks } from './site-blocks.js';

export function ContentBlocksPage() {
  const mode = useEditMode<ContentBlockRecord>('Deleted successfully.');
  // A missing site block chosen to create: the add form opens with its title and slug.
  const [creating, setCreating] = useState<NewBlock | null>(null);
  return (
    <div className="space-y-6">
      <PageTitle>Content Blocks</PageTitle>
      <NoticeAlert notice={mode.notice} onDismiss={mode.dismissNotice} />
      <SiteBlocks
        onCreate={(block) => {
          mode.cancel();
          setCreating(block);
        }}
      />
      <ContentBlockForm
        key={creating && !mode.editing ? `${mode.formKey}-${creating.Slug}` : mode.formKey}
        editing={mode.editing}
        creating={mode.editing ? null : creating}
        onSaved={(message) => {
          setCreating(null);
          mode.saved(message);
        }}
        onFailed={mode.showFailure}
        onCancel={() => {
          setCreating(null);
          mode.cancel();
        }}
      />
      <ContentBlockList
        editingId={mode.editing?._id}
        onEdit={(block) => {
          setCreating(null);
          mode.edit(block);
        }}
        onDeleted={mode.deleted}
        onFailed={mode.showFailure}
      />
    </div>
  );
}
