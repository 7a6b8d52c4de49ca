import { useState } from 'react';
import type { ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import { useContentBlocks, useDeleteContentBlock } from '../../api/content-blocks.js';
import { StatusBadge } from '../../components/ui/badge.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.js';
import { CELL, DataTable, WRAP_CELL } from '../../components/ui/data-table.js';
import { failureNotice, type Notice } from '../../components/ui/notice.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';

/** On a phone the slug folds under the title, so the status and actions stay in view. */
const WIDE_ONLY = 'hidden sm:table-cell';

const COLUMNS = [
  { label: 'Title' },
  { label: 'Slug', className: WIDE_ONLY },
  { label: 'Active' },
  { label: 'Actions', hideLabel: true },
];

interface ContentBlockListProps {
  editingId: string | undefined;
  onEdit: (block: ContentBlockRecord) => void;
  onDeleted: (block: ContentBlockRecord) => void;
  onFailed: (notice: Notice) => void;
}

export function ContentBlockList({ editingId, onEdit, onDeleted, onFailed }: ContentBlockListProps) {
  const blocks = useContentBlocks();
  const remove = useDeleteContentBlock();
  const [pending, setPending] = useState<ContentBlockRecord | null>(null);

  const confirmDelete = async () => {
    if (!pending) return;
    try {
      await remove.mutateAsync(pending._id);
      onDeleted(pending);
    } catch (error) {
      onFailed(failureNotice('Delete failed.', error));
    } finally {
      setPending(null);
    }
  };

  return (
    <Card title="Content Blocks">
      {blocks.isPending || (blocks.isError && blocks.isFetching) ? (
        <Spinner label="Loading content blocks…" />
      ) : blocks.isError ? (
        <ErrorState message="Failed to load content blocks." onRetry={() => blocks.refetch()} />
      ) : blocks.data.length === 0 ? (
        <EmptyState>No content blocks yet. Add the first one with the form above.</EmptyState>
      ) : (
        <DataTable caption="Content blocks" columns={COLUMNS}>
          {blocks.data.map((block) => (
            <tr key={block._id} className={block._id === editingId ? 'bg-indigo-50' : undefined}>
              <td className={`${WRAP_CELL} sm:whitespace-nowrap`}>
                <span className="block font-medium">{block.Title}</span>
                <span className="block break-all font-mono text-xs text-slate-500 sm:hidden">
                  {block.Slug}
                </span>
              </td>
              <td className={`${CELL} ${WIDE_ONLY} font-mono text-xs`}>{block.Slug}</td>
              <td className={CELL}>
                <StatusBadge active={block.isActive} />
              </td>
              <td className={CELL}>
                <div className="flex flex-col gap-1.5 sm:flex-row sm:gap-2">
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => onEdit(block)}
                    aria-label={`Edit ${block.Slug}`}
                  >
                    Edit
                  </Button>
                  <Button
                    size="sm"
                    variant="danger"
                    onClick={() => setPending(block)}
                    aria-label={`Delete ${block.Slug}`}
                  >
                    Delete
                  </Button>
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ConfirmDialog
        message={pending ? 'Delete this content block?' : null}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setPending(null)}
      />
    </Card>
  );
}
