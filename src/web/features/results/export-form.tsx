import { type FormEvent, useState } from 'react';
import { addDays } from '../../../shared/dates.js';
import { resultsExportQuery } from '../../../shared/schemas/results.js';
import { useGhadis } from '../../api/ghadis-api.js';
import { useExportResults } from '../../api/results-csv-api.js';
import { useSiteToday } from '../../api/site-api.js';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { SelectField, TextField } from '../../components/ui/field.js';
import { messageOr } from '../../lib/api-client.js';

/** The first and last day of the month a date falls in. */
export function monthOf(date: string): { from: string; to: string } {
  const from = `${date.slice(0, 7)}-01`;
  const nextMonth = addDays(from, 32).slice(0, 7);
  return { from, to: addDays(`${nextMonth}-01`, -1) };
}

type Field = 'from' | 'to';

/**
 * A range of results (this month unless changed), of every ghadi or one, downloaded as CSV. The
 * default follows the site's today (known once its time zone arrives) until the admin picks a date.
 */
export function ExportForm() {
  const month = monthOf(useSiteToday());
  const ghadis = useGhadis();
  const download = useExportResults();
  const [picked, setPicked] = useState<Partial<Record<Field, string>>>({});
  const [gid, setGid] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const from = picked.from ?? month.from;
  const to = picked.to ?? month.to;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    const query = resultsExportQuery.safeParse({ from, to, ...(gid ? { gid } : {}) });
    if (!query.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of query.error.issues) found[issue.path[0] as Field] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      const name = await download.mutateAsync(query.data);
      setOutcome({ tone: 'success', text: `Downloaded ${name}` });
    } catch (error) {
      setOutcome({ tone: 'error', text: messageOr(error, 'Failed to export results') });
    }
  };

  const pick = (field: Field) => (value: string) => setPicked((current) => ({ ...current, [field]: value }));
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="export-heading" className="space-y-3">
      <h3 id="export-heading" className="text-base font-semibold text-slate-900">
        Export CSV
      </h3>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3 lg:grid-cols-[1fr_1fr_1.5fr_auto] lg:items-start">
        <TextField
          label="From"
          type="date"
          value={from}
          error={errors.from}
          onChange={(e) => pick('from')(e.target.value)}
        />
        <TextField
          label="To"
          type="date"
          value={to}
          error={errors.to}
          onChange={(e) => pick('to')(e.target.value)}
        />
        <SelectField label="Ghadi" value={gid} onChange={(event) => setGid(event.target.value)}>
          <option value="">All ghadis</option>
          {ghadis.data?.map((ghadi) => (
            <option key={ghadi.GID} value={ghadi.GID}>
              {ghadi.NameEn}
            </option>
          ))}
        </SelectField>
        <div className="sm:col-span-3 lg:col-span-1 lg:pt-6">
          <Button type="submit" disabled={download.isPending} className="w-full sm:w-auto">
            {download.isPending ? 'Downloading…' : 'Download CSV'}
          </Button>
        </div>
      </div>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
    </form>
  );
}
