import { Fragment, useEffect, useState } from 'react';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { useDeleteGhadi, useGhadis } from '../../api/ghadis-api.js';
import { UpdateResultForm } from '../../components/admin/update-result-form.js';
import { Badge } from '../../components/ui/badge.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { CELL, DataTable, WRAP_CELL } from '../../components/ui/data-table.js';
import type { Notice } from '../../components/ui/notice.js';
import { Pagination, pageOf } from '../../components/ui/pagination.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { useConfirmedDelete } from '../../hooks/use-confirmed-delete.js';
import { daysText, KIND_BADGES, timesText } from '../../lib/ghadi-days-text.js';

export const GHADI_PAGE_SIZE = 10;

/** On a phone, Order and Result Time fold into the Name cell so the result and the actions stay in view. */
const WIDE_ONLY = 'hidden sm:table-cell';

/** The weekdays a ghadi runs, said only when it does not run every day. */
function RunningDays({ ghadi }: { ghadi: GhadiRecord }) {
  const days = daysText(ghadi.Days);
  return days === 'Every day' ? null : <span className="block text-xs text-slate-600">{days}</span>;
}

const COLUMNS = [
  { label: 'Order', className: WIDE_ONLY },
  { label: 'Name' },
  { label: 'Result Time', className: WIDE_ONLY },
  { label: "Today's Result", wrap: true },
  { label: 'Actions', hideLabel: true },
];

interface GhadiListProps {
  editingId: string | undefined;
  /** A ghadi to bring into view (the one just saved); the list then calls onRevealed. */
  reveal: number | null;
  onRevealed: () => void;
  onEdit: (ghadi: GhadiRecord) => void;
  onDeleted: (ghadi: GhadiRecord) => void;
  onFailed: (notice: Notice) => void;
}

export function GhadiList({ editingId, reveal, onRevealed, onEdit, onDeleted, onFailed }: GhadiListProps) {
  const ghadis = useGhadis();
  const remove = useDeleteGhadi();
  const [page, setPage] = useState(1);
  const [resultFor, setResultFor] = useState<number | null>(null);

  // A new ghadi sorts by its OrderId and may land on another page: go to that page.
  useEffect(() => {
    if (reveal === null || !ghadis.data) return;
    const index = ghadis.data.findIndex((ghadi) => ghadi.GID === reveal);
    if (index >= 0) setPage(Math.floor(index / GHADI_PAGE_SIZE) + 1);
    onRevealed();
  }, [reveal, ghadis.data, onRevealed]);

  const deletion = useConfirmedDelete<GhadiRecord>({
    remove,
    question: 'Are you sure you want to delete this entry?',
    failureText: 'Failed to delete ghadi',
    onDeleted: (ghadi) => {
      if (resultFor === ghadi.GID) setResultFor(null);
      onDeleted(ghadi);
    },
    onFailed,
  });

  const body = () => {
    if (ghadis.isPending || (ghadis.isError && ghadis.isFetching))
      return <Spinner label="Loading ghadi list…" />;
    if (ghadis.isError) {
      return <ErrorState message="Failed to load ghadi list" onRetry={() => ghadis.refetch()} />;
    }
    if (ghadis.data.length === 0)
      return <EmptyState>No ghadi yet. Add the first one with the form above.</EmptyState>;
    const current = pageOf(ghadis.data, page, GHADI_PAGE_SIZE);
    return (
      <div className="space-y-4">
        <DataTable caption={`Ghadi list, page ${current.page} of ${current.pageCount}`} columns={COLUMNS}>
          {current.rows.map((ghadi) => {
            const formId = `update-result-${ghadi.GID}`;
            const open = resultFor === ghadi.GID;
            return (
              <Fragment key={ghadi._id}>
                <tr className={ghadi._id === editingId ? 'bg-indigo-50' : undefined}>
                  <td className={`${CELL} ${WIDE_ONLY} tabular-nums`}>{ghadi.OrderId}</td>
                  <td className={`${WRAP_CELL} sm:whitespace-nowrap`}>
                    <span className="block font-medium">{ghadi.NameEn}</span>
                    <span className="block text-slate-600" lang="hi">
                      {ghadi.NameHn}
                    </span>
                    <span className="mt-1 flex flex-wrap gap-1">
                      <Badge tone={ghadi.Kind === 'jodi' ? 'slate' : 'indigo'}>
                        {KIND_BADGES[ghadi.Kind]}
                      </Badge>
                      {/* Only the exception is marked: most ghadis publish on one person's word. */}
                      {ghadi.Confirmations === 2 && <Badge tone="amber">2 confirmations</Badge>}
                    </span>
                    <span className="block text-xs text-slate-500 sm:hidden">
                      #{ghadi.OrderId} · {timesText(ghadi)}
                    </span>
                    <span className="sm:hidden">
                      <RunningDays ghadi={ghadi} />
                    </span>
                  </td>
                  <td className={`${CELL} ${WIDE_ONLY}`}>
                    {timesText(ghadi)}
                    <RunningDays ghadi={ghadi} />
                  </td>
                  <td className={`${CELL} font-semibold`}>
                    {ghadi.TodayResult || <span className="font-normal text-slate-500">Not yet</span>}
                  </td>
                  <td className={CELL}>
                    <div className="flex flex-col gap-1.5 sm:flex-row sm:gap-2">
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() => onEdit(ghadi)}
                        aria-label={`Edit ${ghadi.NameEn}`}
                      >
                        Edit
                      </Button>
                      <Button
                        size="sm"
                        variant="danger"
                        onClick={() => deletion.ask(ghadi)}
                        aria-label={`Delete ${ghadi.NameEn}`}
                      >
                        Delete
                      </Button>
                      <Button
                        size="sm"
                        variant={open ? 'primary' : 'secondary'}
                        aria-expanded={open}
                        aria-controls={open ? formId : undefined}
                        aria-label={`Update Result of ${ghadi.NameEn}`}
                        onClick={() => setResultFor(open ? null : ghadi.GID)}
                      >
                        Update Result
                      </Button>
                    </div>
                  </td>
                </tr>
                {open && (
                  <tr id={formId} className="bg-slate-50">
                    <td colSpan={COLUMNS.length} className="p-0">
                      {/* Stays in view while the wide table scrolls sideways on a phone. */}
                      <div className="sticky left-0 max-w-[calc(100vw-4.5rem)] p-3 sm:max-w-xl">
                        <UpdateResultForm
                          ghadi={ghadi}
                          todayValue={ghadi.TodayResult}
                          onClose={() => setResultFor(null)}
                        />
                      </div>
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </DataTable>
        <Pagination
          page={current.page}
          pageCount={current.pageCount}
          onPage={setPage}
          label="Ghadi list pages"
        />
      </div>
    );
  };

  return (
    <Card title="Ghadi List">
      {body()}
      {deletion.dialog}
    </Card>
  );
}
