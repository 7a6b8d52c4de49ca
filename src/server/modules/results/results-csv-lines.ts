import { isCalendarDate } from '../../../shared/dates.js';
import type { GhadiKind } from '../../../shared/matka.js';
import { resolveSubmission } from '../../../shared/matka-submissions.js';
import { foldName } from '../../../shared/names.js';
import {
  type ImportLineError,
  RESULTS_CSV_COLUMNS,
  RESULTS_IMPORT_MAX_ERRORS,
  resultValue,
} from '../../../shared/schemas/results.js';
import type { BrokenCsv, CsvRecord } from './csv-records.js';
import { type GhadiEntry, resultKey } from './results-csv-repository.js';

/** A line that passed every check: the result it declares. */
export interface ImportedLine {
  line: number;
  gid: number;
  kind: GhadiKind;
  date: string;
  value: string;
}

export interface LineRules {
  ghadis: GhadiEntry[];
  earliest: string;
  latest: string;
}

type Column = 'date' | 'gid' | 'name' | 'result';
type Columns = Partial<Record<Column, number>>;

const HEADER_TEXT = RESULTS_CSV_COLUMNS.join(',');

/** Header cells are matched without regard to case or spaces around them; other columns are ignored. */
function readHeader(fields: string[]): { columns: Columns } | { problem: string } {
  const columns: Columns = {};
  for (const [index, field] of fields.entries()) {
    const name = field.trim().toLowerCase() as Column;
    if (!(['date', 'gid', 'name', 'result'] as const).includes(name)) continue;
    if (columns[name] !== undefined) return { problem: `The column ${field.trim()} appears twice` };
    columns[name] = index;
  }
  const missing = [
    ...(columns.date === undefined ? ['Date'] : []),
    ...(columns.gid === undefined && columns.name === undefined ? ['GID or Name'] : []),
    ...(columns.result === undefined ? ['Result'] : []),
  ];
  if (missing.length === 0) return { columns };
  return { problem: `Line 1 must be the header (${HEADER_TEXT}); missing: ${missing.join(', ')}` };
}

/**
 * Reads an import file's records into the results they declare, checking each line as a submission
 * is checked (date bounds, the shared result rule, a live ghadi) and that no ghadi and date appear
 * twice. Errors are kept by line, up to RESULTS_IMPORT_MAX_ERRORS, and all are counted.
 */
export class ImportLines {
  readonly lines: ImportedLine[] = [];
  readonly errors: ImportLineError[] = [];
  errorCount = 0;
  private columns: Columns | null = null;
  private headerRead = false;
  private readonly byGid = new Map<number, GhadiEntry>();
  private readonly byName = new Map<string, GhadiEntry>();
  private readonly firstLineOf = new Map<string, number>();

  constructor(private readonly rules: LineRules) {
    for (const ghadi of rules.ghadis) {
      this.byGid.set(ghadi.gid, ghadi);
      // Deleted ghadis free their names: a live one of the same name wins.
      const named = this.byName.get(ghadi.name_folded);
      if (!named || named.deleted) this.byName.set(ghadi.name_folded, ghadi);
    }
  }

  add({ line, fields }: CsvRecord): void {
    if (!this.headerRead) {
      this.headerRead = true;
      const header = readHeader(fields);
      if ('problem' in header) this.fail(line, header.problem);
      else this.columns = header.columns;
      return;
    }
    // Without a usable header no line can be read; the one error above says why.
    if (!this.columns) return;
    const problems: string[] = [];
    const cell = (column: Column) => {
      const index = this.columns?.[column];
      return index === undefined ? '' : (fields[index] ?? '').trim();
    };
    const date = this.dateOf(cell('date'), problems);
    const ghadi = this.ghadiOf(cell('gid'), cell('name'), problems);
    const value = resultValue.safeParse(cell('result'));
    if (!value.success) problems.push(`Result: ${value.error.issues[0]?.message ?? 'Is invalid'}`);
    // A panna or open/close ghadi's line is read as a submission on a day with nothing stored: its
    // stored forms, or a bare panna (the open half of a market).
    const resolved = ghadi && value.success ? resolveSubmission(ghadi.kind, value.data, null) : null;
    if (resolved && !resolved.ok) problems.push(`Result: ${resolved.message}`);
    if (problems.length > 0 || !date || !ghadi || !resolved?.ok) {
      this.fail(line, problems.join('; '));
      return;
    }
    const key = resultKey(ghadi.gid, date);
    const first = this.firstLineOf.get(key);
    if (first !== undefined) {
      this.fail(line, `${ghadi.name_en} on ${date} is also on line ${first}`);
      return;
    }
    this.firstLineOf.set(key, line);
    this.lines.push({ line, gid: ghadi.gid, kind: ghadi.kind, date, value: resolved.value });
  }

  /** After the last record: a file that broke off, or had no header at all, says so. */
  finish(broken: BrokenCsv | null): void {
    if (broken) this.fail(broken.line, broken.message);
    else if (!this.headerRead) this.fail(1, `The file is empty; line 1 must be the header (${HEADER_TEXT})`);
  }

  private fail(line: number, message: string): void {
    this.errorCount += 1;
    if (this.errors.length < RESULTS_IMPORT_MAX_ERRORS) this.errors.push({ line, message });
  }

  private dateOf(text: string, problems: string[]): string | null {
    if (!isCalendarDate(text)) {
      problems.push(text ? 'Date: Must be a date (YYYY-MM-DD)' : 'Date: This field is required');
      return null;
    }
    const { earliest, latest } = this.rules;
    if (text < earliest || text > latest) {
      problems.push(`Date: Must be between ${earliest} and ${latest}`);
      return null;
    }
    return text;
  }

  /** The GID names the ghadi when given (the name is then only for people reading the file). */
  private ghadiOf(gidText: string, name: string, problems: string[]): GhadiEntry | null {
    let ghadi: GhadiEntry | undefined;
    let named: string;
    if (gidText) {
      if (!/^\d{1,10}$/.test(gidText)) {
        problems.push('GID: Must be a positive number');
        return null;
      }
      ghadi = this.byGid.get(Number(gidText));
      named = `GID ${gidText}`;
    } else if (name) {
      ghadi = this.byName.get(foldName(name));
      named = `Name ${name}`;
    } else {
      problems.push('GID or Name: This field is required');
      return null;
    }
    if (!ghadi) problems.push(`${named}: No such ghadi`);
    else if (ghadi.deleted) problems.push(`${named}: The ghadi ${ghadi.name_en} is deleted`);
    return ghadi && !ghadi.deleted ? ghadi : null;
  }
}
