import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';

/** One CSV record and the file line it starts on (the header is line 1). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** The text is handed to the parser in slices, so that a 10 MB file does not hold the event loop at once. */
const SLICE = 64 * 1024;

function* slices(text: string): Generator<string> {
  for (let start = 0; start < text.length; start += SLICE) yield text.slice(start, start + SLICE);
}

/**
 * The line a record starts on. The parser counts the line a record ends on; a quoted field may span
 * lines, and the empty lines it skipped before the record are part of its raw text.
 */
function firstLine(endLine: number, raw: string): number {
  const body = raw.replace(/\r?\n$|\r$/, '').replace(/^(?:\r?\n)+/, '');
  const inner = body.match(/\r\n|\r|\n/g)?.length ?? 0;
  return endLine - inner;
}

/** How a cell a spreadsheet would run as a formula begins. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell as written to a file a spreadsheet may open: text that would start a formula (a name like
 * =HYPERLINK(...), a value like +1-2) gets a leading apostrophe, which spreadsheets show as text and
 * the import removes again (fromCell), so a round trip keeps every byte.
 */
export function toCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The cell's text as exported before toCell (a result value never starts with an apostrophe). */
export function fromCell(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

const isBlank = (fields: string[]) => fields.every((field) => field.trim() === '');

interface ParsedRecord {
  record: string[];
  raw: string;
  info: { lines: number };
}

/** Where a file stops being CSV (an unclosed quote, say), and the parser's reason. */
export interface BrokenCsv {
  line: number;
  message: string;
}

/**
 * Hands each of the file's records to `onRecord`, blank lines (and lines of empty cells, as
 * spreadsheets write them) left out. Resolves with where the file stops being CSV, or null.
 */
export async function readCsv(
  text: string,
  onRecord: (record: CsvRecord) => void,
): Promise<BrokenCsv | null> {
  const parser = Readable.from(slices(text)).pipe(
    parse({ bom: true, info: true, raw: true, relax_column_count: true, skip_empty_lines: true }),
  );
  try {
    for await (const { record, raw, info } of parser as AsyncIterable<ParsedRecord>) {
      if (!isBlank(record)) onRecord({ line: firstLine(info.lines, raw), fields: record.map(fromCell) });
    }
    return null;
  } catch (error) {
    if (error instanceof CsvError) {
      return { line: Number(error.lines) || 1, message: `Not valid CSV: ${error.message}` };
    }
    throw error;
  }
}
