import type { AssignmentRecord } from '../../../shared/schemas/assignments.js';
import { useAssignments, useDeleteAssignment } from '../../api/assignments-api.js';
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
  const assignments = useAssignments();
  const remove = useDeleteAssignment();
  const deletion = useConfirmedDelete<AssignmentRecord>({
    remove,
    question: 'Delete this assignment?',
    failureText: 'Failed to delete assignment',
    onDeleted: () => onDeleted(),
    onFailed,
  });

  return (
    <Card title="Current Assignments">
      {assignments.isPending || (assignments.isError && assignments.isFetching) ? (
        <Spinner label="Loading assignments…" />
      ) : assignments.isError ? (
        <ErrorState message="Failed to load assignments" onRetry={() => assignments.refetch()} />
      ) : assignments.data.length === 0 ? (
        <EmptyState>No ghadi is assigned to any agent yet.</EmptyState>
      ) : (
        <DataTable caption="Current assignments" columns={COLUMNS}>
          {assignments.data.map((assignment) => (
            <tr key={assignment._id}>
              {/* Names wrap, so the Delete button stays on a phone's screen. */}
              <td className={WRAP_CELL}>
                <span className="block font-medium">{assignment.DisplayName}</span>
                <span className="block text-slate-600">{assignment.UserName}</span>
              </td>
              <td className={WRAP_CELL}>{assignment.NameEn}</td>
              <td className={`${CELL} text-right`}>
                <Button
                  size="sm"
                  variant="danger"
                  onClick={() => deletion.ask(assignment)}
                  aria-label={`Delete ${assignment.NameEn} from ${assignment.UserName}`}
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
