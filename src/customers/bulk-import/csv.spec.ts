import 'reflect-metadata';
import { CsvFormatError, parseCsv } from './csv';
import { readCsvFile } from './csv-file';
import { customerInputOf, customerRows, duplicateRows, headerErrors } from './customer-rows';

describe('parseCsv', () => {
  it('reads a header and records, CRLF or LF, skipping a byte order mark and blank lines', () => {
    expect(parseCsv('\uFEFFa,b\r\n1,2\n\n3,\r\n')).toEqual({ header: ['a', 'b'], records: [['1', '2'], ['3', '']] });
    expect(parseCsv('a,b\n1,2')).toEqual({ header: ['a', 'b'], records: [['1', '2']] });
  });

  it('takes commas, doubled quotes and line breaks inside quotes; an empty quoted line is a record', () => {
    expect(parseCsv('a,b\n"x, y","say ""hi""\r\nbye"\n""\n').records).toEqual([['x, y', 'say "hi"\r\nbye'], ['']]);
  });

  it('refuses a stray quote, text after a closing quote and an unclosed quote, naming the line', () => {
    expect(() => parseCsv('a\nab"c\n')).toThrow(new CsvFormatError('A quote inside an unquoted field on line 2: quote the whole field and double the quote', 2));
    expect(() => parseCsv('a\n"ab"c\n')).toThrow('Unexpected character after a closing quote on line 2');
    expect(() => parseCsv('a\n"x\ny\n')).toThrow('A quoted field opened on line 2 is never closed');
  });
});

describe('CSV file and rows', () => {
  const header = 'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country';
  const file = (...lines: string[]) => readCsvFile(Buffer.from([header, ...lines].join('\n')));

  it('refuses a header without the required columns, unknown or repeated columns', () => {
    expect(headerErrors(['umaAddress', 'x', 'umaAddress']).map((error) => error.message)).toEqual([
      expect.stringContaining('Unknown column "x"'),
      'Column umaAddress appears twice',
      'Missing required column platformCustomerId',
      'Missing required column customerType',
    ]);
  });

  it('maps a row to the create command\'s input with the DTO\'s rules; bad columns are named as the CSV names them', () => {
    const { table } = file('$a@x.com,a,INDIVIDUAL,Ann Lee,1990-01-15,1 Main St,Austin,TX,78701,US', '$b@x.com,b,INDIVIDUAL,Bo,1990-01-15,,Austin,TX,78701,USA,extra');
    const [good, bad] = customerRows(table);
    expect(customerInputOf(good, table.records[0].length, table.header.length)).toEqual({
      input: expect.objectContaining({
        customerType: 'INDIVIDUAL',
        platformCustomerId: 'a',
        umaAddress: '$a@x.com',
        profile: expect.objectContaining({ fullName: 'Ann Lee', address: { line1: '1 Main St', line2: null, city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' } }),
      }),
    });
    const refused = customerInputOf(bad, table.records[1].length, table.header.length);
    expect('error' in refused && (refused.error.details!.errors as Array<{ field: string }>).map((error) => error.field)).toEqual(['row', 'addressLine1', 'country']);
  });

  it('refuses a repeated platformCustomerId or UMA address (any case) after its first row', () => {
    const { table } = file('$a@x.com,a,INDIVIDUAL', '$b@x.com,a,INDIVIDUAL', '$A@X.com,c,INDIVIDUAL', '$d@x.com,d,INDIVIDUAL');
    const duplicates = duplicateRows(customerRows(table));
    expect([...duplicates.keys()]).toEqual([2, 3]);
    expect(duplicates.get(3)).toEqual({ code: 'UMA_ADDRESS_EXISTS', message: 'umaAddress repeats row 1 of this file', details: { field: 'umaAddress', duplicateOfRow: 1 } });
  });

  it('counts rows and refuses more than 10,000, non-UTF-8 and empty files', () => {
    expect(file('$a@x.com,a,INDIVIDUAL').table.records).toHaveLength(1);
    const many = Array.from({ length: 10_001 }, (_, index) => `$${index}@x.com,${index},INDIVIDUAL`);
    expect(file(...many).errors.map((error) => error.message)).toEqual(['file has 10001 rows; at most 10000 are taken in one upload']);
    expect(readCsvFile(Buffer.from([0xc3, 0x28])).errors[0].message).toBe('file must be UTF-8 text (a CSV), without NUL characters');
    expect(readCsvFile(Buffer.alloc(0)).errors[0].message).toBe('file is empty: send a header line and at least one row');
  });
});
