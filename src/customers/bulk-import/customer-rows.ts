import { FieldError } from '../../infra/domain/domain-error';
import { CreateCustomerInput } from '../commands/create-customer';
import { BulkImportRowError } from '../domain/bulk-import/bulk-import.events';
import { checkCreateCustomerBody } from '../http/customers.controller';
import { CsvTable } from './csv';

/** The reference's columns (uploadCustomersCsv); any other column is refused with the file. */
export const CSV_COLUMNS = [
  'umaAddress', 'platformCustomerId', 'customerType', 'fullName', 'birthDate', 'email', 'businessLegalName',
  'businessRegistrationNumber', 'businessTaxId', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode',
  'country', 'platformAccountId', 'description',
] as const;
type Column = (typeof CSV_COLUMNS)[number];
export type CustomerRow = Partial<Record<Column, string>>;

const REQUIRED_FOR_ALL: Column[] = ['umaAddress', 'platformCustomerId', 'customerType'];
const REQUIRED_FOR_TYPE: Record<'INDIVIDUAL' | 'BUSINESS', Column[]> = {
  INDIVIDUAL: ['fullName', 'birthDate', 'addressLine1', 'city', 'state', 'postalCode', 'country'],
  BUSINESS: ['businessLegalName', 'addressLine1', 'city', 'state', 'postalCode', 'country'],
};
/** Columns of the other customer type: a value there is a mistake worth naming. */
const ONLY_FOR_TYPE: Record<'INDIVIDUAL' | 'BUSINESS', Column[]> = {
  INDIVIDUAL: ['fullName', 'birthDate', 'email'],
  BUSINESS: ['businessLegalName', 'businessRegistrationNumber', 'businessTaxId'],
};

/** The request-body path a column lands on, so the DTO's field errors name the column back. */
const BODY_PATH_COLUMNS: Record<string, Column> = {
  'address.line1': 'addressLine1', 'address.line2': 'addressLine2', 'address.city': 'city', 'address.state': 'state',
  'address.postalCode': 'postalCode', 'address.country': 'country', 'businessInfo.legalName': 'businessLegalName',
  'businessInfo.registrationNumber': 'businessRegistrationNumber', 'businessInfo.taxId': 'businessTaxId',
};

/** Problems of the header line: unknown or repeated columns, missing required ones. Empty when usable. */
export function headerErrors(header: string[]): FieldError[] {
  const errors: FieldError[] = [];
  const known = new Set<string>(CSV_COLUMNS);
  const seen = new Set<string>();
  for (const name of header) {
    if (!known.has(name)) errors.push({ field: 'file', constraint: {}, message: `Unknown column ${JSON.stringify(name)}: the columns are ${CSV_COLUMNS.join(', ')}` });
    else if (seen.has(name)) errors.push({ field: 'file', constraint: {}, message: `Column ${name} appears twice` });
    seen.add(name);
  }
  for (const name of REQUIRED_FOR_ALL) {
    if (!seen.has(name)) errors.push({ field: 'file', constraint: {}, message: `Missing required column ${name}` });
  }
  return errors;
}

/** The records as rows keyed by column; an empty cell is an absent value. */
export function customerRows(table: CsvTable): CustomerRow[] {
  return table.records.map((record) => {
    const row: CustomerRow = {};
    table.header.forEach((name, index) => {
      const value = (record[index] ?? '').trim();
      if (value !== '') row[name as Column] = value;
    });
    return row;
  });
}

/**
 * A row as `POST /customers` would take it: the same DTO checks, then the CSV's own rules (the
 * columns its type requires). Every bad column is listed at once, named as the CSV names it.
 */
export function customerInputOf(row: CustomerRow, cellCount: number, headerCount: number): { input: CreateCustomerInput } | { error: BulkImportRowError } {
  const errors: FieldError[] = [];
  if (cellCount !== headerCount) {
    errors.push({ field: 'row', constraint: {}, message: `The row has ${cellCount} cells; the header has ${headerCount}` });
  }
  const type = row.customerType === 'INDIVIDUAL' || row.customerType === 'BUSINESS' ? row.customerType : null;
  for (const column of [...REQUIRED_FOR_ALL, ...(type ? REQUIRED_FOR_TYPE[type] : [])]) {
    if (row[column] === undefined) errors.push({ field: column, constraint: {}, message: `${column} is required` });
  }
  if (type) {
    const other = type === 'INDIVIDUAL' ? 'BUSINESS' : 'INDIVIDUAL';
    for (const column of ONLY_FOR_TYPE[other]) {
      if (row[column] !== undefined) errors.push({ field: column, constraint: {}, message: `${column} is only for ${other} customers` });
    }
  }
  const checked = checkRow(row);
  for (const error of checked.errors) {
    const field = BODY_PATH_COLUMNS[error.field] ?? error.field;
    if (!errors.some((known) => known.field === field)) errors.push({ ...error, field, message: error.message.replace(error.field, field) });
  }
  if (errors.length > 0) return { error: rowValidationError(errors.sort((a, b) => columnRank(a.field) - columnRank(b.field))) };
  return { input: checked.input! };
}

/** Errors are listed in the CSV's column order (`row`, about the whole row, first). */
function columnRank(field: string): number {
  const index = (CSV_COLUMNS as readonly string[]).indexOf(field);
  return index < 0 ? (field === 'row' ? -1 : CSV_COLUMNS.length) : index;
}

function rowValidationError(errors: FieldError[]): BulkImportRowError {
  const message = errors.length === 1 ? errors[0].message : `${errors.length} fields are invalid: ${errors.map((error) => error.field).join(', ')}`;
  return { code: 'INVALID_INPUT', message, details: { errors } };
}

function addressOf(row: CustomerRow): Record<string, string> | undefined {
  const address = { line1: row.addressLine1, line2: row.addressLine2, city: row.city, state: row.state, postalCode: row.postalCode, country: row.country };
  const present = Object.entries(address).filter(([, value]) => value !== undefined);
  return present.length > 0 ? Object.fromEntries(present) as Record<string, string> : undefined;
}

function compact(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

/** The row as the body `POST /customers` would get, checked by the same parse. */
function checkRow(row: CustomerRow): { input: CreateCustomerInput | null; errors: FieldError[] } {
  const body = row.customerType === 'BUSINESS'
    ? compact({
        customerType: 'BUSINESS', platformCustomerId: row.platformCustomerId, umaAddress: row.umaAddress, address: addressOf(row),
        businessInfo: compact({ legalName: row.businessLegalName, registrationNumber: row.businessRegistrationNumber, taxId: row.businessTaxId }),
      })
    : compact({
        customerType: row.customerType, platformCustomerId: row.platformCustomerId, umaAddress: row.umaAddress,
        fullName: row.fullName, birthDate: row.birthDate, email: row.email, address: addressOf(row),
      });
  return checkCreateCustomerBody(body);
}

/**
 * Rows repeating an earlier row's platformCustomerId or UMA address (row number -> the error):
 * the first one is imported, the repeats are refused before anything is created, so a resumed
 * job can tell its own customers from a repeat.
 */
export function duplicateRows(rows: CustomerRow[]): Map<number, BulkImportRowError> {
  const duplicates = new Map<number, BulkImportRowError>();
  const firstByKey = new Map<string, number>();
  rows.forEach((row, index) => {
    const rowNumber = index + 1;
    const keys: Array<[Column, string | undefined]> = [['platformCustomerId', row.platformCustomerId], ['umaAddress', row.umaAddress?.toLowerCase()]];
    for (const [column, value] of keys) {
      if (value === undefined) continue;
      const first = firstByKey.get(`${column}:${value}`);
      if (first !== undefined) {
        const code = column === 'umaAddress' ? 'UMA_ADDRESS_EXISTS' : 'CONFLICT';
        duplicates.set(rowNumber, { code, message: `${column} repeats row ${first} of this file`, details: { field: column, duplicateOfRow: first } });
        return;
      }
    }
    for (const [column, value] of keys) if (value !== undefined) firstByKey.set(`${column}:${value}`, rowNumber);
  });
  return duplicates;
}
