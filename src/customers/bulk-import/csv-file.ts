import { FieldError } from '../../infra/domain/domain-error';
import { CsvFormatError, CsvTable, parseCsv } from './csv';
import { headerErrors } from './customer-rows';

/** The largest CSV taken (the reference's upload limit for files) and the most rows in one job. */
export const MAX_CSV_BYTES = 10 * 1024 * 1024;
export const MAX_CSV_ROWS = 10_000;

/**
 * Reads an uploaded CSV file as a whole before a job is accepted: UTF-8, a header the columns of
 * the reference, 1 to MAX_CSV_ROWS data rows. Anything wrong with the file itself is a 400 now;
 * what is wrong with single rows is reported per row by the job.
 */
export function readCsvFile(bytes: Buffer): { table: CsvTable; errors: FieldError[] } {
  const empty: CsvTable = { header: [], records: [] };
  const text = utf8Text(bytes);
  if (text === null || text.includes('\u0000')) {
    return { table: empty, errors: [fileError('file must be UTF-8 text (a CSV), without NUL characters')] };
  }
  let table: CsvTable;
  try {
    table = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvFormatError) return { table: empty, errors: [fileError(`file is not valid CSV: ${error.message}`)] };
    throw error;
  }
  if (table.header.length === 0) return { table, errors: [fileError('file is empty: send a header line and at least one row')] };
  const errors = headerErrors(table.header);
  if (table.records.length === 0) errors.push(fileError('file has a header but no rows'));
  if (table.records.length > MAX_CSV_ROWS) errors.push(fileError(`file has ${table.records.length} rows; at most ${MAX_CSV_ROWS} are taken in one upload`));
  return { table, errors };
}

function fileError(message: string): FieldError {
  return { field: 'file', constraint: {}, message };
}

function utf8Text(bytes: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
