import { once } from 'node:events';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { z } from 'zod';
import { openOwnerOnly } from '../../lib/owner-only-files.js';
import type { TableName } from './dump-tables.js';

/**
 * A dump is gzip-compressed NDJSON: a header line, one line per row ({"table","row"}), table after
 * table in import order, and a trailer with the row count of every table. A file without its trailer
 * was cut short; one whose counts differ lost or gained lines.
 */
export const DUMP_FORMAT = 'ghadi-results-dump';
export const DUMP_FORMAT_VERSION = 1;

export const dumpHeaderSchema = z.object({
  format: z.literal(DUMP_FORMAT),
  formatVersion: z.literal(DUMP_FORMAT_VERSION),
  migrations: z.array(z.string()),
  exportedAt: z.string(),
  dialect: z.enum(['sqlite', 'postgres']),
});
export type DumpHeader = z.infer<typeof dumpHeaderSchema>;

const dumpValueSchema = z.union([z.string(), z.number(), z.null()]);

export const dumpRowLineSchema = z.object({
  table: z.string(),
  row: z.record(z.string(), dumpValueSchema),
});

export const dumpTrailerSchema = z.object({ counts: z.record(z.string(), z.number().int().min(0)) });

export type RowCounts = Record<TableName, number>;

/** What an export wrote or an import loaded: the dump's header and every table's row count. */
export interface DumpSummary {
  header: DumpHeader;
  counts: RowCounts;
}

/** Writes lines through gzip to a file, waiting whenever the compressor's buffer is full. */
export class DumpWriter {
  private readonly gzip = zlib.createGzip();
  private readonly finished: Promise<void>;
  private failure: unknown;

  /** `file` is created (or emptied) readable by its owner only: it holds password hashes. */
  constructor(file: string) {
    this.finished = pipeline(this.gzip, fs.createWriteStream(file, { fd: openOwnerOnly(file) }));
    // Kept for end(): a write error (disk full) must fail the export, not crash the process.
    this.finished.catch((error: unknown) => {
      this.failure = error;
    });
  }

  async write(values: unknown[]): Promise<void> {
    if (this.failure) throw this.failure;
    const text = values.map((value) => `${JSON.stringify(value)}\n`).join('');
    if (!this.gzip.write(text)) await Promise.race([once(this.gzip, 'drain'), this.finished]);
  }

  async end(): Promise<void> {
    this.gzip.end();
    await this.finished;
  }

  /** Stops writing after a failure; the caller removes the partial file. */
  async abort(): Promise<void> {
    this.gzip.destroy();
    await this.finished.catch(() => undefined);
  }
}

/** The file's lines, decompressed and decoded as they are read; throws on a damaged gzip stream. */
export async function* readDumpLines(file: string): AsyncGenerator<string> {
  const gunzip = zlib.createGunzip();
  gunzip.setEncoding('utf8');
  // Errors of either stream reach the loop below through gunzip; this promise only must not go unheard.
  pipeline(fs.createReadStream(file), gunzip).catch(() => undefined);
  let pending = '';
  try {
    for await (const chunk of gunzip as AsyncIterable<string>) {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      yield* lines;
    }
  } catch (error) {
    throw asDumpError(error);
  }
  if (pending !== '') yield pending;
}

/** zlib's own words ("unexpected end of file", "incorrect data check") with what they mean here. */
function asDumpError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('Z_')) return error;
  return new DumpError(`The dump is cut short or damaged (gzip: ${(error as Error).message})`);
}

/** Parses one line as JSON, naming the line when it is not. */
export function parseLine(line: string, lineNumber: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new DumpError(`Line ${lineNumber} of the dump is not JSON: the file is damaged`);
  }
}

/** A refusal or a damaged dump: its message is for the operator, as it is. */
export class DumpError extends Error {}
