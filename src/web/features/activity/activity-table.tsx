import type { ActivityEntry } from '../../../shared/schemas/activity.js';
import { Badge } from '../../components/ui/badge.js';
import { CELL, DataTable, WRAP_CELL } from '../../components/ui/data-table.js';
import { HindiRuns } from '../../components/ui/hindi-runs.js';
import { shortUserAgent } from '../../lib/user-agent-text.js';
import { ACTION_LABELS } from './activity-labels.js';

/** On a phone, Target, Summary, Address and Device fold under the action: three columns, no sideways scroll. */
const WIDE_ONLY = 'hidden md:table-cell';

const COLUMNS = [
  { label: 'When' },
  { label: 'Who' },
  { label: 'Action' },
  { label: 'Target', className: WIDE_ONLY },
  { label: 'Summary', className: WIDE_ONLY },
  { label: 'Address', className: WIDE_ONLY },
  { label: 'Device', className: WIDE_ONLY },
];

const whenFormats = new Map<string, Intl.DateTimeFormat>();

/** "28 Nov 2026, 14:05:09" on the site's clocks. */
export function siteDateTime(instant: string, timeZone: string): string {
  let format = whenFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZone,
    });
    whenFormats.set(timeZone, format);
  }
  const at = Date.parse(instant);
  return Number.isNaN(at) ? instant : format.format(at);
}

function Who({ entry }: { entry: ActivityEntry }) {
  if (entry.UserName === null) return <span className="text-slate-500">No such user</span>;
  return (
    <>
      <span className="block font-medium text-slate-900">{entry.UserName}</span>
      {entry.Role && (
        <span className="mt-0.5 block">
          <Badge tone={entry.Role === 'admin' ? 'indigo' : 'slate'}>
            {entry.Role === 'admin' ? 'Admin' : 'Agent'}
          </Badge>
        </span>
      )}
    </>
  );
}

function Target({ entry }: { entry: ActivityEntry }) {
  return (
    <>
      {entry.Target.Name ? <HindiRuns text={entry.Target.Name} /> : <span className="text-slate-500">–</span>}
      {entry.Target.Id !== null && <span className="ml-1 text-xs text-slate-500">#{entry.Target.Id}</span>}
    </>
  );
}

function Device({ entry }: { entry: ActivityEntry }) {
  return <span title={entry.UserAgent || undefined}>{shortUserAgent(entry.UserAgent)}</span>;
}

/** One page of the trail, newest first; `busy` while the next page loads in its place. Read-only. */
export function ActivityTable({
  entries,
  timeZone,
  busy,
}: {
  entries: ActivityEntry[];
  timeZone: string;
  busy: boolean;
}) {
  return (
    <div aria-busy={busy} className={`transition-opacity ${busy ? 'opacity-60' : ''}`}>
      <DataTable caption="Activity, newest first" columns={COLUMNS}>
        {entries.map((entry) => (
          <tr key={entry._id}>
            <td className={`${WRAP_CELL} w-28 text-xs sm:text-sm md:w-auto md:whitespace-nowrap`}>
              <time dateTime={entry.At}>{siteDateTime(entry.At, timeZone)}</time>
            </td>
            <td className={`${WRAP_CELL}`}>
              <Who entry={entry} />
            </td>
            <td className={`${WRAP_CELL} md:whitespace-nowrap`}>
              <span
                className={`font-medium ${entry.Action === 'login_failed' ? 'text-red-700' : 'text-slate-900'}`}
              >
                {ACTION_LABELS[entry.Action] ?? entry.Action}
              </span>
              {/* What the wide screen's other columns say, under the action on a phone. */}
              <span className="mt-1 block space-y-0.5 text-xs text-slate-600 md:hidden">
                <span className="block text-slate-800">
                  <Target entry={entry} />
                </span>
                {entry.Summary && (
                  <span className="block break-words">
                    <HindiRuns text={entry.Summary} />
                  </span>
                )}
                <span className="block">
                  <span className="font-mono">{entry.Ip}</span> · <Device entry={entry} />
                </span>
              </span>
            </td>
            <td className={`${WRAP_CELL} ${WIDE_ONLY}`}>
              <Target entry={entry} />
            </td>
            <td className={`${WRAP_CELL} ${WIDE_ONLY} min-w-48 max-w-sm text-slate-700`}>
              {entry.Summary ? <HindiRuns text={entry.Summary} /> : <span className="text-slate-500">–</span>}
            </td>
            <td className={`${CELL} ${WIDE_ONLY} font-mono text-xs`}>{entry.Ip}</td>
            <td className={`${CELL} ${WIDE_ONLY}`}>
              <Device entry={entry} />
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
