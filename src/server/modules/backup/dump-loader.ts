import { DumpError, dumpRowLineSchema, dumpTrailerSchema, parseLine } from './dump-format.js';
import type { DumpRepository, DumpRow } from './dump-repository.js';
import { isOmitted, isTableName, TABLE_ORDER, type TableName, tableSpec } from './dump-tables.js';

/** Bound parameters per insert, well under SQLite's (32 766) and PostgreSQL's (65 535) limits. */
const MAX_PARAMETERS = 5000;

/**
 * Reads the lines after the header and inserts their rows in batches, table after table, until the
 * trailer; checks its counts. Throws on anything else, so the caller's transaction rolls back.
 */
export async function loadRows(
  repository: DumpRepository,
  lines: AsyncIterable<string>,
): Promise<Record<TableName, number>> {
  const loader = new RowLoader(repository);
  let lineNumber = 1;
  let counted: Record<TableName, number> | undefined;
  for await (const line of lines) {
    lineNumber += 1;
    if (line === '') continue;
    if (counted) throw new DumpError(`Line ${lineNumber} follows the trailer: the file is damaged`);
    const value = parseLine(line, lineNumber);
    const row = dumpRowLineSchema.safeParse(value);
    if (row.success) {
      await loader.add(row.data.table, row.data.row, lineNumber);
      continue;
    }
    const trailer = dumpTrailerSchema.safeParse(value);
    if (!trailer.success) throw new DumpError(`Line ${lineNumber} is neither a row nor the trailer`);
    counted = await loader.finish(trailer.data.counts);
  }
  if (!counted) throw new DumpError('The dump ends before its trailer: the file is truncated');
  return counted;
}

/** The base64 text of bytes columns decoded, as the export wrote them. */
function withBytes(row: DumpRow, binary: readonly string[], lineNumber: number): DumpRow {
  const out: DumpRow = { ...row };
  for (const column of binary) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value))
      throw new DumpError(`Line ${lineNumber}: column ${column} is not base64: the file is damaged`);
    out[column] = Buffer.from(value, 'base64');
  }
  return out;
}

class RowLoader {
  private position = 0;
  private batch: DumpRow[] = [];
  private readonly counts = Object.fromEntries(TABLE_ORDER.map((table) => [table, 0])) as Record<
    TableName,
    number
  >;

  constructor(private readonly repository: DumpRepository) {}

  private get table(): TableName {
    return TABLE_ORDER[this.position] as TableName;
  }

  async add(table: string, row: DumpRow, lineNumber: number): Promise<void> {
    if (!isTableName(table)) throw new DumpError(`Line ${lineNumber} names an unknown table "${table}"`);
    const position = TABLE_ORDER.indexOf(table);
    // Parents come before children, so a row never waits for the row it refers to.
    if (position < this.position) {
      throw new DumpError(`Line ${lineNumber}: a row of ${table} after the rows of ${this.table}`);
    }
    if (position > this.position) {
      await this.flush();
      this.position = position;
    }
    this.counts[table] += 1;
    // A dump made before the signing key was left out holds it: it is not taken into another database.
    if (isOmitted(table, row)) return;
    const { binary = [], rowsPerPage } = tableSpec(table);
    this.batch.push(binary.length > 0 ? withBytes(row, binary, lineNumber) : row);
    if (
      this.batch.length * Object.keys(row).length >= MAX_PARAMETERS ||
      (rowsPerPage !== undefined && this.batch.length >= rowsPerPage)
    )
      await this.flush();
  }

  async finish(expected: Record<string, number>): Promise<Record<TableName, number>> {
    await this.flush();
    for (const table of new Set([...TABLE_ORDER, ...Object.keys(expected)])) {
      const read = isTableName(table) ? this.counts[table] : 0;
      if (expected[table] !== read) {
        throw new DumpError(
          `The trailer counts ${expected[table] ?? 'no'} rows of ${table} but the file holds ${read}: the file is damaged`,
        );
      }
    }
    return this.counts;
  }

  private async flush(): Promise<void> {
    await this.repository.insert(this.table, this.batch);
    this.batch = [];
  }
}
