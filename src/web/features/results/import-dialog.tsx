import { type FormEvent, useId, useState } from 'react';
import type { ResultsImportAnswer } from '../../../shared/schemas/results.js';
import { useImportResults } from '../../api/results-csv-api.js';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { ModalDialog } from '../../components/ui/modal-dialog.js';
import { messageOr } from '../../lib/api-client.js';
import { ImportSummary } from './import-summary.js';

interface ImportDialogProps {
  open: boolean;
  onClose: () => void;
  /** After a real import: the server's summary ("Imported: 3 created, …"). */
  onImported: (message: string) => void;
}

const FILE_HINT =
  'A header row, then one result a line: Date (YYYY-MM-DD), GID or Name, Result. Up to 10 MB.';

/** The file chosen and read, and what its check found. */
interface Checked {
  text: string;
  answer: ResultsImportAnswer;
}

/**
 * Import from CSV in two steps: the file is checked first (a dry run: counts and the first errors, by
 * line), and only Confirm writes it. A modal <dialog>, as the delete confirmations are: focus stays
 * inside, Escape cancels, focus returns to the button that opened it.
 */
export function ImportDialog({ open, onClose, onImported }: ImportDialogProps) {
  const ids = useId();
  const run = useImportResults();
  const [file, setFile] = useState<File | null>(null);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // A new form after each close, so the file input forgets the file it showed.
  const [generation, setGeneration] = useState(0);

  const reset = () => {
    setFile(null);
    setChecked(null);
    setFailure(null);
  };
  const close = () => {
    reset();
    setGeneration((current) => current + 1);
    onClose();
  };

  const check = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(null);
    if (!file) {
      setFailure('Choose a CSV file first.');
      return;
    }
    setFailure(null);
    try {
      const text = await file.text();
      setChecked({ text, answer: await run.mutateAsync({ text, dryRun: true }) });
    } catch (error) {
      setFailure(messageOr(error, 'Failed to check the file'));
    }
  };

  const confirm = async () => {
    if (!checked) return;
    setFailure(null);
    try {
      const answer = await run.mutateAsync({ text: checked.text, dryRun: false });
      if (answer.success) {
        onImported(answer.message);
        close();
      } else {
        // The stored results changed since the check: what the import found instead.
        setChecked({ ...checked, answer });
      }
    } catch (error) {
      setFailure(messageOr(error, 'Failed to import results'));
    }
  };

  const answer = checked?.answer;
  const changes = answer ? answer.created + answer.corrected : 0;
  const canConfirm = Boolean(answer?.success) && changes > 0 && !run.isPending;
  return (
    <ModalDialog
      open={open}
      labelledBy={`${ids}-title`}
      onCancel={() => {
        if (!run.isPending) close();
      }}
      widthClass="w-[min(40rem,calc(100vw-2rem))]"
    >
      <form key={generation} onSubmit={check} noValidate className="space-y-4 p-4 sm:p-5">
        <h2 id={`${ids}-title`} className="text-lg font-semibold text-slate-900">
          Import results from CSV
        </h2>
        <div className="space-y-1">
          <label htmlFor={`${ids}-file`} className="block text-sm font-medium text-slate-700">
            CSV file
          </label>
          <input
            id={`${ids}-file`}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={`${ids}-hint`}
            onChange={(event) => {
              reset();
              setFile(event.target.files?.[0] ?? null);
            }}
            className="block w-full min-w-0 text-sm text-slate-800 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-50"
          />
          <p id={`${ids}-hint`} className="text-xs text-slate-500">
            {FILE_HINT}
          </p>
        </div>
        {failure && <Alert tone="error">{failure}</Alert>}
        {answer && (
          <section aria-label="Check of the file" aria-live="polite">
            <ImportSummary answer={answer} />
          </section>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={run.isPending}>
            Cancel
          </Button>
          {answer?.success ? (
            <Button onClick={confirm} disabled={!canConfirm}>
              {run.isPending ? 'Importing…' : `Confirm import (${changes.toLocaleString('en-IN')})`}
            </Button>
          ) : (
            <Button type="submit" disabled={run.isPending}>
              {run.isPending ? 'Checking…' : 'Check file'}
            </Button>
          )}
        </div>
      </form>
    </ModalDialog>
  );
}
