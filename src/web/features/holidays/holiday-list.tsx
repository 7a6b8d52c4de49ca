import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import type { HolidayRecord } from '../../../shared/schemas/holidays.js';
import { useGhadis } from '../../api/ghadis-api.js';
import { useDeleteHoliday, useHolidays } from '../../api/holidays-api.js';
import { useSiteToday } from '../../api/site-api.js';
import { Badge } from '../../components/ui/badge.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { CELL, DataTable, WRAP_CELL } from '../../components/ui/data-table.js';
import type { Notice } from '../../components/ui/notice.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { useConfirmedDelete } from '../../hooks/use-confirmed-delete.js';
import { weekdayNameOf } from '../../lib/ghadi-days-text.js';

/** On a phone the note folds under the ghadi, so the Delete button stays in view. */
const WIDE_ONLY = 'hidden sm:table-cell';

const COLUMNS = [
  { label: 'Date' },
  { label: 'Ghadi' },
  { label: 'Note', className: WIDE_ONLY },
  { label: 'Actions', hideLabel: true },
];

/** A holiday's ghadi by name: every ghadi, a live one, or one deleted since (only its number is left). */
function ghadiNameOf(holiday: HolidayRecord, ghadis: GhadiRecord[] | undefined): string {
  if (holiday.GID === null) return 'All ghadis';
  return ghadis?.find((ghadi) => ghadi.GID === holiday.GID)?.NameEn ?? `Ghadi ${holiday.GID} (deleted)`;
}

interface HolidayTableProps {
  caption: string;
  holidays: HolidayRecord[];
  today: string;
  ghadis: GhadiRecord[] | undefined;
  onDelete: (holiday: HolidayRecord) => void;
}

function HolidayTable({ caption, holidays, today, ghadis, onDelete }: HolidayTableProps) {
  return (
    <DataTable caption={caption} columns={COLUMNS}>
      {holidays.map((holiday) => {
        const ghadi = ghadiNameOf(holiday, ghadis);
        return (
          <tr key={holiday._id}>
            <td className={CELL}>
              <span className="block font-medium tabular-nums">{holiday.Date}</span>
              <span className="flex items-center gap-1.5 text-xs text-slate-600">
                {weekdayNameOf(holiday.Date)}
                {holiday.Date === today && <Badge tone="amber">Today</Badge>}
              </span>
            </td>
            <td className={WRAP_CELL}>
              <span className={`block ${holiday.GID === null ? 'font-semibold' : ''}`}>{ghadi}</span>
              {holiday.Note && <span className="block text-xs text-slate-600 sm:hidden">{holiday.Note}</span>}
            </td>
            <td className={`${WRAP_CELL} ${WIDE_ONLY} text-slate-700`}>
              {holiday.Note || <span className="text-slate-500">—</span>}
            </td>
            <td className={CELL}>
              <Button
                size="sm"
                variant="danger"
                onClick={() => onDelete(holiday)}
                aria-label={`Delete holiday ${holiday.Date} ${ghadi}`}
              >
                Delete
              </Button>
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}

interface HolidayListProps {
  onDeleted: () => void;
  onFailed: (notice: Notice) => void;
}

/**
 * Upcoming holidays first, soonest first: those are the ones an operator plans and checks. Past
 * ones follow, newest first, folded away: they only explain old gaps in the charts.
 */
export function HolidayList({ onDeleted, onFailed }: HolidayListProps) {
  const holidays = useHolidays();
  const ghadis = useGhadis();
  const today = useSiteToday();
  const remove = useDeleteHoliday();
  const deletion = useConfirmedDelete<HolidayRecord>({
    remove,
    question: 'Delete this holiday?',
    failureText: 'Failed to delete holiday',
    onDeleted,
    onFailed,
  });

  const body = () => {
    if (holidays.isPending || (holidays.isError && holidays.isFetching))
      return <Spinner label="Loading holidays…" />;
    if (holidays.isError)
      return <ErrorState message="Failed to load holidays" onRetry={() => holidays.refetch()} />;
    const upcoming = holidays.data.filter((holiday) => holiday.Date >= today);
    const past = holidays.data.filter((holiday) => holiday.Date < today).reverse();
    return (
      <div className="space-y-4">
        <h3 className="text-sm font-semibold text-slate-700">Upcoming</h3>
        {upcoming.length === 0 ? (
          <EmptyState>No upcoming holiday. Add one with the form above.</EmptyState>
        ) : (
          <HolidayTable
            caption="Upcoming holidays"
            holidays={upcoming}
            today={today}
            ghadis={ghadis.data}
            onDelete={deletion.ask}
          />
        )}
        {past.length > 0 && (
          <details className="group rounded-md border border-slate-200">
            <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-600">
              Past holidays ({past.length})
            </summary>
            <div className="border-t border-slate-200 p-2">
              <HolidayTable
                caption="Past holidays"
                holidays={past}
                today={today}
                ghadis={ghadis.data}
                onDelete={deletion.ask}
              />
            </div>
          </details>
        )}
      </div>
    );
  };

  return (
    <Card title="Holiday List">
      {body()}
      {deletion.dialog}
    </Card>
  );
}
