/**
 * RFC 4180 CSV: fields separated by commas, records by CRLF or LF, a field in double quotes may
 * hold commas, line breaks and doubled quotes (`""`). A leading UTF-8 byte order mark is skipped
 * (spreadsheets write one). Blank lines are no records.
 */
export interface CsvTable {
  header: string[];
  /** Data records in file order; `records[0]` is row 1. */
  records: string[][];
}

export class CsvFormatError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** Parses the whole text; throws CsvFormatError (with the 1-based line) on a stray or unclosed quote. */
export function parseCsv(text: string): CsvTable {
  const records = parseRecords(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const [header = [], ...rest] = records;
  return { header: header.map((name) => name.trim()), records: rest };
}

function parseRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let index = 0;
  const endField = () => {
    record.push(field);
    field = '';
    quoted = false;
  };
  const endRecord = () => {
    // A blank line (one empty, unquoted field) is no record.
    const blank = record.length === 0 && field === '' && !quoted;
    endField();
    if (!blank) records.push(record);
    record = [];
  };
  while (index < text.length) {
    const char = text[index];
    if (char === '"' && field === '' && !quoted) {
      const closing = quotedFieldEnd(text, index + 1, line);
      field = text.slice(index + 1, closing.end).replace(/""/g, '"');
      quoted = true;
      line += closing.lineBreaks;
      index = closing.end + 1;
      const next = text[index];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        throw new CsvFormatError(`Unexpected character after a closing quote on line ${line}`, line);
      }
      continue;
    }
    if (char === ',') {
      endField();
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      endRecord();
      line += 1;
    } else if (char === '"' || quoted) {
      throw new CsvFormatError(`A quote inside an unquoted field on line ${line}: quote the whole field and double the quote`, line);
    } else {
      field += char;
    }
    index += 1;
  }
  if (field !== '' || quoted || record.length > 0) endRecord();
  return records;
}

/** The index of the quote that closes a quoted field starting at `from`, and the line breaks inside it. */
function quotedFieldEnd(text: string, from: number, line: number): { end: number; lineBreaks: number } {
  let lineBreaks = 0;
  for (let index = from; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\n') lineBreaks += 1;
    if (char !== '"') continue;
    if (text[index + 1] === '"') {
      index += 1;
      continue;
    }
    return { end: index, lineBreaks };
  }
  throw new CsvFormatError(`A quoted field opened on line ${line} is never closed`, line);
}
