import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  RESULTS_IMPORT_MAX_BYTES,
  type ResultsExportQuery,
  type ResultsImportAnswer,
  resultsImportAnswer,
} from '../../shared/schemas/results.js';
import { ApiError, apiFetch, failureOf } from '../lib/api-client.js';
import { queryKeys } from './query-keys.js';

const TOO_LARGE = 'The file is larger than 10 MB; split it into smaller files';

/** The export's address for a range, and the file name the server gives it. */
function exportRequest(query: ResultsExportQuery): { path: string; fileName: string } {
  const params = new URLSearchParams({ from: query.from, to: query.to });
  if (query.gid !== undefined) params.set('gid', String(query.gid));
  return {
    path: `/api/results/export.csv?${params}`,
    fileName: `results-${query.from}-${query.to}.csv`,
  };
}

/** The file name of a Content-Disposition header, when it gives one. */
function fileNameOf(disposition: string | null): string | undefined {
  return disposition ? /filename="([^"]+)"/.exec(disposition)?.[1] : undefined;
}

/** Hands a downloaded file to the browser as a save, under its name. */
function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the object URL after this turn; revoking it at once can cancel the save.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads a range of results as CSV. A plain link cannot carry the bearer token, so the file is
 * fetched, then saved from memory (a month of 30 ghadis is about 30 KB; ten years about 4 MB).
 */
async function downloadResults(query: ResultsExportQuery): Promise<string> {
  const { path, fileName } = exportRequest(query);
  const response = await apiFetch('GET', path, { headers: { accept: 'text/csv' } });
  if (!response.ok) throw failureOf(response, await response.json().catch(() => undefined));
  const name = fileNameOf(response.headers.get('content-disposition')) ?? fileName;
  saveFile(await response.blob(), name);
  return name;
}

export function useExportResults() {
  return useMutation({ mutationFn: downloadResults });
}

export interface ImportRequest {
  /** The file's text, read once: the check and the import then send the same bytes. */
  text: string;
  dryRun: boolean;
}

/**
 * Sends a file to the import. Lines in error answer 400 with the same summary as a success (and its
 * errors), so both are read as an answer; anything else is a failure.
 */
async function importResults({ text, dryRun }: ImportRequest): Promise<ResultsImportAnswer> {
  const body = new Blob([text], { type: 'text/csv' });
  if (body.size > RESULTS_IMPORT_MAX_BYTES) {
    throw new ApiError(TOO_LARGE, 413, TOO_LARGE);
  }
  const response = await apiFetch('POST', `/api/results/import?dryRun=${dryRun}`, {
    body,
    headers: { 'content-type': 'text/csv; charset=utf-8', accept: 'application/json' },
  });
  const payload: unknown = await response.json().catch(() => undefined);
  const answer = resultsImportAnswer.safeParse(payload);
  if ((response.ok || response.status === 400) && answer.success) return answer.data;
  throw failureOf(response, payload);
}

/** Checks (dryRun) or imports a file; a real import refreshes every screen that shows results. */
export function useImportResults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importResults,
    onSuccess: (answer) => {
      if (answer.dryRun || !answer.success) return;
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.results }),
        queryClient.invalidateQueries({ queryKey: queryKeys.ghadis }),
        queryClient.invalidateQueries({ queryKey: queryKeys.counts }),
        queryClient.invalidateQueries({ queryKey: ['agent'] }),
      ]);
    },
  });
}
