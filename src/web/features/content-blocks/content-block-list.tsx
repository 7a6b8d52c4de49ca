import type { ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import { useContentBlocks, useDeleteContentBlock } from '../../api/content-blocks-api.js';
import { StatusBadge } from '../../components/ui/badge.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { CELL, DataTable, WRAP_CELL } from '../../components/ui/data-table.js';
import { HindiRuns } from '../../components/ui/hindi-runs.js';
import type { Notice } from '../../components/ui/notice.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { useConfirmedDelete } from '../../hooks/use-confirmed-delete.js';

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
  const deletion = useConfirmedDelete<ContentBlockRecord>({
    remove,
    question: 'Delete this content block?',
    failureText: 'Delete failed.',
    onDeleted: onDeleted,
    onFailed,
  });

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
                <span className="block font-medium">
                  <HindiRuns text={block.Title} />
                </span>
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
                    onClick={() => deletion.ask(block)}
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
      {deletion.dialog}
    </Card>
  );
}
