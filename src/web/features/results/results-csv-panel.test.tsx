import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { todayInZone } from '../../../shared/dates.js';
import type { ResultsImportAnswer } from '../../../shared/schemas/results.js';
import type { UserRecord } from '../../../shared/schemas/users.js';
import { queryKeys } from '../../api/query-keys.js';
import { startSession } from '../../lib/session.js';
import { ADMIN_ONE, ghadiRecord } from '../../test/records.js';
import { renderWithQuery } from '../../test/render.js';
import { monthOf } from './export-form.js';
import { ResultsCsvPanel } from './results-csv-panel.js';

const ADMIN = ADMIN_ONE as UserRecord;

const TIME_ZONE = 'Asia/Kolkata';
const CSV = 'Date,GID,Name,Result\n2026-11-01,1,Ghadi 1,12\n';

interface Sent {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
}

const answer = (overrides: Partial<ResultsImportAnswer>): ResultsImportAnswer => ({
  success: true,
  message: '',
  dryRun: true,
  created: 0,
  corrected: 0,
  unchanged: 0,
  errors: [],
  errorCount: 0,
  ...overrides,
});

let sent: Sent[] = [];
let importAnswers: Array<{ status: number; body: ResultsImportAnswer }> = [];

async function bodyText(body: BodyInit | null | undefined): Promise<string | undefined> {
  if (body instanceof Blob) return body.text();
  return body === null || body === undefined ? undefined : String(body);
}

beforeEach(() => {
  sent = [];
  importAnswers = [];
  startSession({ ...ADMIN, token: 'admin-token' });
  // jsdom has neither modal dialogs nor object URLs.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
  URL.createObjectURL = vi.fn(() => 'blob:csv');
  URL.revokeObjectURL = vi.fn();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      sent.push({
        method,
        url,
        headers: init.headers as Record<string, string>,
        body: await bodyText(init.body),
      });
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      if (url.pathname === '/api/site')
        return json({ success: true, siteName: 'x', timeZone: TIME_ZONE, today: '' });
      if (url.pathname === '/api/ghadis')
        return json({ success: true, data: [ghadiRecord(1), ghadiRecord(2)] });
      if (url.pathname === '/api/results/export.csv') {
        const name = `results-${url.searchParams.get('from')}-${url.searchParams.get('to')}.csv`;
        return new Response(CSV, {
          headers: { 'content-type': 'text/csv', 'content-disposition': `attachment; filename="${name}"` },
        });
      }
      const next = importAnswers.shift();
      return next ? json(next.body, next.status) : json({ success: false, message: 'Unexpected' }, 500);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const requestsTo = (path: string) => sent.filter((request) => request.url.pathname === path);

describe('Export', () => {
  it('downloads this month by default, with the token, under the server’s file name', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderWithQuery(<ResultsCsvPanel />);
    const month = monthOf(todayInZone(TIME_ZONE));
    await waitFor(() => expect(screen.getByLabelText('From')).toHaveValue(month.from));
    expect(screen.getByLabelText('To')).toHaveValue(month.to);
    await screen.findByRole('option', { name: 'Ghadi 2' });
    await userEvent.selectOptions(screen.getByLabelText('Ghadi'), 'Ghadi 2');
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));

    const fileName = `results-${month.from}-${month.to}.csv`;
    expect(await screen.findByRole('status')).toHaveTextContent(`Downloaded ${fileName}`);
    const [request] = requestsTo('/api/results/export.csv');
    expect(request?.url.search).toBe(`?from=${month.from}&to=${month.to}&gid=2`);
    expect(request?.headers.authorization).toBe('Bearer admin-token');
    expect(click).toHaveBeenCalledTimes(1);
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe(fileName);
    expect(link.href).toBe('blob:csv');
  });

  it('says what is wrong with a range before asking the server', async () => {
    renderWithQuery(<ResultsCsvPanel />);
    await userEvent.clear(screen.getByLabelText('From'));
    await userEvent.type(screen.getByLabelText('From'), '2026-05-10');
    await userEvent.clear(screen.getByLabelText('To'));
    await userEvent.type(screen.getByLabelText('To'), '2026-05-01');
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('Must be on or after from')).toBeInTheDocument();
    expect(screen.getByLabelText('To')).toHaveAttribute('aria-invalid', 'true');
    expect(requestsTo('/api/results/export.csv')).toEqual([]);
  });
});

describe('Import', () => {
  const openDialog = async () => {
    await userEvent.click(screen.getByRole('button', { name: 'Import CSV…' }));
    return screen.getByRole('dialog', { name: 'Import results from CSV' });
  };
  const choose = (dialog: HTMLElement, text: string) =>
    userEvent.upload(
      within(dialog).getByLabelText('CSV file'),
      new File([text], 'results.csv', { type: 'text/csv' }),
    );

  it('checks the file, shows the counts and the first 20 errors by line, and imports nothing', async () => {
    const errors = Array.from({ length: 23 }, (_, index) => ({
      line: index + 2,
      message: `Problem ${index + 2}`,
    }));
    importAnswers.push({
      status: 400,
      body: answer({ success: false, created: 4, corrected: 1, unchanged: 2, errors, errorCount: 23 }),
    });
    renderWithQuery(<ResultsCsvPanel />);
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Check file' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Choose a CSV file first.');

    await choose(dialog, 'Date,GID,Result\nbad');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Check file' }));
    const summary = await within(dialog).findByLabelText('Results in the file');
    expect(summary).toHaveTextContent('New4');
    expect(summary).toHaveTextContent('Corrected1');
    expect(summary).toHaveTextContent('Unchanged2');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('23 lines have errors. Nothing was imported');
    const shown = within(within(dialog).getByRole('list', { name: 'Errors by line' })).getAllByRole(
      'listitem',
    );
    expect(shown).toHaveLength(20);
    expect(shown[0]).toHaveTextContent('Line 2Problem 2');
    expect(within(dialog).getByText('…and 3 more errors.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /Confirm/ })).not.toBeInTheDocument();

    const [check] = requestsTo('/api/results/import');
    expect(check?.url.search).toBe('?dryRun=true');
    expect(check?.body).toBe('Date,GID,Result\nbad');
    expect(check?.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(check?.headers.authorization).toBe('Bearer admin-token');
  });

  it('after a clean check, Confirm imports the same file, closes and refreshes the results', async () => {
    importAnswers.push(
      { status: 200, body: answer({ created: 2, corrected: 1, unchanged: 5 }) },
      {
        status: 200,
        body: answer({
          dryRun: false,
          created: 2,
          corrected: 1,
          unchanged: 5,
          message: 'Imported: 2 created',
        }),
      },
    );
    const { queryClient } = renderWithQuery(<ResultsCsvPanel />);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const dialog = await openDialog();
    await choose(dialog, CSV);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Check file' }));
    expect(await within(dialog).findByText(/The file is ready to import/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm import (3)' }));

    await waitFor(() => expect(dialog).not.toHaveAttribute('open'));
    expect(screen.getByRole('status')).toHaveTextContent('Imported: 2 created');
    const imports = requestsTo('/api/results/import');
    expect(imports.map((request) => [request.url.search, request.body])).toEqual([
      ['?dryRun=true', CSV],
      ['?dryRun=false', CSV],
    ]);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.results });
  });

  it('Cancel closes without importing; a file that changes nothing cannot be confirmed', async () => {
    importAnswers.push({ status: 200, body: answer({ unchanged: 3 }) });
    renderWithQuery(<ResultsCsvPanel />);
    const dialog = await openDialog();
    await choose(dialog, CSV);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Check file' }));
    expect(await within(dialog).findByText(/already stored/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Confirm import (0)' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(dialog).not.toHaveAttribute('open');
    expect(requestsTo('/api/results/import')).toHaveLength(1);
  });
});
