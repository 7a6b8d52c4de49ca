import { useState } from 'react';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { ExportForm } from './export-form.js';
import { ImportDialog } from './import-dialog.js';

/** Results to and from CSV: a range downloaded, a file checked and then imported. */
export function ResultsCsvPanel() {
  const [importing, setImporting] = useState(false);
  const [imported, setImported] = useState<string | null>(null);
  return (
    <Card title="Export and import">
      <div className="space-y-4">
        <ExportForm />
        <div className="space-y-3 border-t border-slate-200 pt-4">
          <h3 className="text-base font-semibold text-slate-900">Import CSV</h3>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="min-w-0 flex-1 basis-64 text-sm text-slate-600">
              The file is checked first; nothing changes until you confirm.
            </p>
            <Button
              variant="secondary"
              onClick={() => {
                setImported(null);
                setImporting(true);
              }}
            >
              Import CSV…
            </Button>
          </div>
          {imported && <Alert tone="success">{imported}</Alert>}
        </div>
      </div>
      <ImportDialog open={importing} onClose={() => setImporting(false)} onImported={setImported} />
    </Card>
  );
}
