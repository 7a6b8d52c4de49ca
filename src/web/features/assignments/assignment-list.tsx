import type { UsermapRecord } from '../../../shared/schemas/usermaps.js';
import { useDeleteUsermap, useUsermaps } from '../../api/usermaps-api.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { CELL, DataTable, WRAP_CELL } from '../../components/ui/data-table.js';
import type { Notice } from '../../components/ui/notice.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { useConfirmedDelete } from '../../hooks/use-confirmed-delete.js';

const COLUMNS = [{ label: 'Agent' }, { label: 'Ghadi' }, { label: 'Actions', hideLabel: true }];

interface AssignmentListProps {
  onDeleted: () => void;
  onFailed: (notice: Notice) => void;
}

export function AssignmentList({ onDeleted, onFailed }: AssignmentListProps) {
  const usermaps = useUsermaps();
  const remove = useDeleteUsermap();
  const deletion = useConfirmedDelete<UsermapRecord>({
    remove,
    question: 'Delete this assignment?',
    failureText: 'Failed to delete assignment',
    onDeleted: () => onDeleted(),
    onFailed,
  });

  return (
    <Card title="Current Assignments">
      {usermaps.isPending || (usermaps.isError && usermaps.isFetching) ? (
        <Spinner label="Loading assignments…" />
      ) : usermaps.isError ? (
        <ErrorState message="Failed to load assignments" onRetry={() => usermaps.refetch()} />
      ) : usermaps.data.length === 0 ? (
        <EmptyState>No ghadi is assigned to any agent yet.</EmptyState>
      ) : (
        <DataTable caption="Current assignments" columns={COLUMNS}>
          {usermaps.data.map((map) => (
            <tr key={map._id}>
              {/* Names wrap, so the Delete button stays on a phone's screen. */}
              <td className={WRAP_CELL}>
                <span className="block font-medium">{map.DisplayName}</span>
                <span className="block text-slate-600">{map.UserName}</span>
              </td>
              <td className={WRAP_CELL}>{map.NameEn}</td>
              <td className={`${CELL} text-right`}>
                <Button
                  size="sm"
                  variant="danger"
                  onClick={() => deletion.ask(map)}
                  aria-label={`Delete ${map.NameEn} from ${map.UserName}`}
                >
                  Delete
                </Button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {deletion.dialog}
    </Card>
  );
}
