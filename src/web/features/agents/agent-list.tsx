import type { UserRecord } from '../../../shared/schemas/users.js';
import { useDeleteUser, useUsers } from '../../api/users-api.js';
import { Badge, StatusBadge } from '../../components/ui/badge.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { CELL, DataTable } from '../../components/ui/data-table.js';
import type { Notice } from '../../components/ui/notice.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { useConfirmedDelete } from '../../hooks/use-confirmed-delete.js';
import { useSession } from '../../lib/session.js';

/** On a phone, display name and email fold into the Username cell so the status and actions stay in view. */
const WIDE_ONLY = 'hidden md:table-cell';

const COLUMNS = [
  { label: 'Username' },
  { label: 'Display Name', className: WIDE_ONLY },
  { label: 'Email', className: WIDE_ONLY },
  { label: 'Status' },
  { label: 'Actions', hideLabel: true },
];

interface AgentListProps {
  editingId: string | undefined;
  onEdit: (user: UserRecord) => void;
  onDeleted: (user: UserRecord) => void;
  onFailed: (notice: Notice) => void;
}

/** Every user the API lists; admins carry a badge and nobody is offered to delete their own account. */
export function AgentList({ editingId, onEdit, onDeleted, onFailed }: AgentListProps) {
  const users = useUsers();
  const remove = useDeleteUser();
  const session = useSession();
  const deletion = useConfirmedDelete<UserRecord>({
    remove,
    question: 'Are you sure you want to delete this agent?',
    failureText: 'Failed to delete agent',
    onDeleted: onDeleted,
    onFailed,
  });

  return (
    <Card title="Agents">
      {users.isPending || (users.isError && users.isFetching) ? (
        <Spinner label="Loading agents…" />
      ) : users.isError ? (
        <ErrorState message="Failed to load agents" onRetry={() => users.refetch()} />
      ) : users.data.length === 0 ? (
        <EmptyState>No agents yet. Add the first one with the form above.</EmptyState>
      ) : (
        <DataTable caption="Agents" columns={COLUMNS}>
          {users.data.map((user) => {
            const isSelf = session?.User_Id === user.User_Id;
            return (
              <tr key={user._id} className={user._id === editingId ? 'bg-indigo-50' : undefined}>
                <td className={CELL}>
                  <span className="flex items-center gap-1.5">
                    <span className="font-medium">{user.UserName}</span>
                    {user.UserType === 'admin' && <Badge tone="indigo">Admin</Badge>}
                    {isSelf && <Badge tone="slate">You</Badge>}
                  </span>
                  <span className="block whitespace-normal text-slate-600 md:hidden">{user.DisplayName}</span>
                  <span className="block whitespace-normal break-all text-xs text-slate-500 md:hidden">
                    {user.Email}
                  </span>
                </td>
                <td className={`${CELL} ${WIDE_ONLY}`}>{user.DisplayName}</td>
                <td className={`${CELL} ${WIDE_ONLY}`}>{user.Email}</td>
                <td className={CELL}>
                  <StatusBadge active={user.isActive} />
                </td>
                <td className={CELL}>
                  <div className="flex flex-col gap-1.5 sm:flex-row sm:gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() => onEdit(user)}
                      aria-label={`Edit ${user.UserName}`}
                    >
                      Edit
                    </Button>
                    {!isSelf && (
                      <Button
                        size="sm"
                        variant="danger"
                        onClick={() => deletion.ask(user)}
                        aria-label={`Delete ${user.UserName}`}
                      >
                        Delete
                      </Button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      {deletion.dialog}
    </Card>
  );
}
