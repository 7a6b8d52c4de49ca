import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { completesOpenHalf } from '../../../shared/matka.js';
import {
  RESULTS_CSV_COLUMNS,
  type ResultsExportQuery,
  type ResultsImportAnswer,
} from '../../../shared/schemas/results.js';
import type { Executor } from '../../db/database.js';
import type { Activity, ActivityRecorder, Actor } from '../activity/activity-recorder.js';
import type { Change } from '../changes/change.js';
import type { ChangeLog } from '../changes/change-log.js';
import type { DeclarationLog } from '../declarations/declaration-log.js';
import { readCsv, toCell } from './csv-records.js';
import { adminDateRange } from './result-dates.js';
import { type ImportedLine, ImportLines } from './results-csv-lines.js';
import { type ResultsCsvRepository, resultKey, type StoredResult } from './results-csv-repository.js';
import type { ResultsWriteRepository } from './results-write-repository.js';

/** Rows read at a time by an export: a few milliseconds of work each. */
const EXPORT_PAGE_SIZE = 1000;
/**
 * Past this many changed results an import is logged as one change, not one per result: each logged
 * change becomes a live event built and pushed to every open page, one after another.
 */
export const BULK_IMPORT_THRESHOLD = 50;

interface ImportPlan {
  created: ImportedLine[];
  corrected: Array<ImportedLine & { stored: StoredResult; completes: boolean }>;
  unchanged: number;
}

interface Counts {
  created: number;
  corrected: number;
  unchanged: number;
}

/** What a real import wrote, and the results it changed (for the change log). */
interface Written extends Counts {
  changed: ImportedLine[];
}

const countsOf = (plan: ImportPlan): Counts => ({
  created: plan.created.length,
  corrected: plan.corrected.length,
  unchanged: plan.unchanged,
});

function changesOf(changed: ImportedLine[]): Change[] {
  if (changed.length > BULK_IMPORT_THRESHOLD) return [{ kind: 'results-imported', count: changed.length }];
  return changed.map(({ gid, date }) => ({ kind: 'result', gid, date }));
}

function summary(plan: Counts): string {
  return `${plan.created} created, ${plan.corrected} corrected, ${plan.unchanged} unchanged`;
}

/** An import as the activity trail names it: the dates it covers, and what it did. */
function importActivity(lines: ImportedLine[], written: Counts): Activity {
  const dates = lines.map((line) => line.date).sort();
  const [first, last] = [dates[0], dates[dates.length - 1]];
  const name = first === undefined ? 'no lines' : first === last ? first : `${first} to ${last}`;
  return {
    action: 'results_import',
    target: { id: null, name },
    summary: `${plural(lines.length, 'line', 'lines')}: ${summary(written)}`,
  };
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

export interface ResultsCsvDependencies {
  csv: ResultsCsvRepository;
  writes: ResultsWriteRepository;
  changes: ChangeLog;
  declarations: DeclarationLog;
  activity: ActivityRecorder;
  timeZone: string;
  /** Told how many results a real import created or corrected (the metrics). */
  onImported?: (count: number) => void;
}

/**
 * Results as CSV: an export streamed a page at a time, and an import that writes every line of a file
 * or none, through the same rules and the same change log as a declared result.
 */
export class ResultsCsvService {
  constructor(private readonly deps: ResultsCsvDependencies) {}

  /** The CSV text of a range, as a stream of bytes: header first, then by date and GID. */
  export(query: ResultsExportQuery): Readable {
    const { csv } = this.deps;
    async function* records() {
      for await (const rows of csv.pages(query, EXPORT_PAGE_SIZE)) {
        for (const row of rows)
          yield [row.result_date, String(row.gid), toCell(row.name_en), toCell(row.value)];
      }
    }
    const text = stringify({ header: true, columns: [...RESULTS_CSV_COLUMNS] });
    // A failed read mid-way destroys the stream, so the client sees a cut answer, not a short file.
    pipeline(Readable.from(records()), text).catch(() => {});
    return text;
  }

  async import(actor: Actor, text: string, dryRun: boolean): Promise<ResultsImportAnswer> {
    const lines = await this.read(text);
    if (lines.errorCount > 0 || dryRun)
      return this.answer(countsOf(await this.plan(lines.lines)), lines, dryRun);
    const now = new Date().toISOString();
    const written = await this.deps.changes.write(
      async (trx) => {
        const done = await this.write(trx, lines.lines, actor.userId, now);
        await this.deps.activity.record(trx, actor, importActivity(lines.lines, done));
        return done;
      },
      (done) => changesOf(done.changed),
    );
    this.deps.onImported?.(written.created + written.corrected);
    return this.answer(written, lines, dryRun);
  }

  private async read(text: string): Promise<ImportLines> {
    const lines = new ImportLines({
      ghadis: await this.deps.csv.ghadis(),
      ...adminDateRange(this.deps.timeZone),
    });
    lines.finish(await readCsv(text, (record) => lines.add(record)));
    return lines;
  }

  /** Which lines would create a result, which would correct one, and how many change nothing. */
  private async plan(lines: ImportedLine[], trx?: Executor): Promise<ImportPlan> {
    const plan: ImportPlan = { created: [], corrected: [], unchanged: 0 };
    if (lines.length === 0) return plan;
    let [from, to] = [lines[0]?.date ?? '', lines[0]?.date ?? ''];
    for (const { date } of lines) {
      if (date < from) from = date;
      if (date > to) to = date;
    }
    const gids = [...new Set(lines.map((line) => line.gid))];
    const stored = await this.deps.csv.stored(gids, from, to, trx);
    for (const line of lines) {
      const existing = stored.get(resultKey(line.gid, line.date));
      if (!existing) plan.created.push(line);
      else if (existing.value === line.value) plan.unchanged += 1;
      else {
        const completes = line.kind === 'open-close' && completesOpenHalf(existing.value, line.value);
        plan.corrected.push({ ...line, stored: existing, completes });
      }
    }
    return plan;
  }

  /**
   * Planned and written in one transaction, many rows to a statement; a correction keeps the old value
   * in result_history, as a declared one does, and every created or corrected value is appended to the
   * declaration log in the file's order.
   */
  private async write(trx: Executor, lines: ImportedLine[], userId: number, now: string): Promise<Written> {
    const plan = await this.plan(lines, trx);
    await this.deps.csv.correct(trx, plan.corrected, userId, now);
    const missed = await this.deps.csv.insertNew(trx, plan.created, userId, now);
    const previous = new Map<string, string | null>();
    const completing = new Set<string>();
    for (const line of plan.created) previous.set(resultKey(line.gid, line.date), null);
    for (const line of plan.corrected) {
      previous.set(resultKey(line.gid, line.date), line.stored.value);
      if (line.completes) completing.add(resultKey(line.gid, line.date));
    }
    // Stored by another writer since the plan was read (PostgreSQL): corrected as a declared result is.
    for (const line of missed) {
      const key = resultKey(line.gid, line.date);
      const current =
        line.kind === 'open-close' ? await this.deps.writes.current(trx, line.gid, line.date) : null;
      const completes = line.kind === 'open-close' && completesOpenHalf(current, line.value);
      const outcome = await this.deps.writes.upsert(trx, { ...line, userId, now, completes });
      if (outcome.kind === 'unchanged') previous.delete(key);
      else previous.set(key, outcome.previous);
      if (completes) completing.add(key);
    }
    await this.deps.declarations.append(
      trx,
      lines.flatMap((line) => {
        const key = resultKey(line.gid, line.date);
        if (!previous.has(key)) return [];
        const { gid, date, value } = line;
        const completes = completing.has(key);
        return [
          {
            gid,
            date,
            value,
            previous: previous.get(key) ?? null,
            completes,
            declaredAt: now,
            declaredBy: userId,
            imported: true,
          },
        ];
      }),
    );
    const counts = countsOf(plan);
    return {
      created: counts.created - missed.length,
      corrected: counts.corrected + missed.length,
      unchanged: counts.unchanged,
      changed: [...plan.created, ...plan.corrected],
    };
  }

  private answer(counts: Counts, lines: ImportLines, dryRun: boolean): ResultsImportAnswer {
    const failed = lines.errorCount > 0;
    let message: string;
    if (failed) {
      const errors = `${plural(lines.errorCount, 'line has', 'lines have')} errors`;
      message = dryRun ? errors : `${errors}; nothing was imported`;
    } else message = `${dryRun ? 'Would import' : 'Imported'}: ${summary(counts)}`;
    return {
      success: !failed,
      message,
      dryRun,
      created: counts.created,
      corrected: counts.corrected,
      unchanged: counts.unchanged,
      errors: lines.errors,
      errorCount: lines.errorCount,
    };
  }
}
