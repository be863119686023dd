import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import {
  type CsvColumn,
  csvField,
  fetchAllPages,
  neutralizeFormula,
  toCsv,
} from '../../renderer/src/format/csv.js';

interface Row {
  number: string;
  text: string;
  parts?: number;
}

const columns: CsvColumn<Row>[] = [
  { header: 'number', value: (row) => row.number },
  { header: 'text', value: (row) => row.text },
  { header: 'parts', value: (row) => row.parts },
];

describe('CSV export', () => {
  it('writes a BOM, a header row and CRLF-terminated rows', () => {
    expect(toCsv(columns, [{ number: '+15551234567', text: 'Hi', parts: 1 }])).toBe(
      '\uFEFFnumber,text,parts\r\n+15551234567,Hi,1\r\n',
    );
  });

  it('quotes fields holding commas, quotes or line breaks and doubles the quotes', () => {
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('leaves missing values empty', () => {
    expect(toCsv(columns, [{ number: '+1', text: '' }]).split('\r\n')[1]).toBe('+1,,');
  });

  it('defuses text a spreadsheet would run as a formula', () => {
    expect(neutralizeFormula('=HYPERLINK("http://x")')).toBe('\'=HYPERLINK("http://x")');
    expect(neutralizeFormula('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(neutralizeFormula('+cmd|calc')).toBe("'+cmd|calc");
  });

  it('defuses a formula that starts a cell only once a sheet splits the text on ; or tab', () => {
    // Security review (issue 36) item 12: the exact texts that left `=` at a cell's start.
    const semicolon = csvField('hi;=1+1');
    const tab = csvField('hi\t=2+2');
    expect(semicolon).toBe("hi;'=1+1");
    expect(tab).toBe("hi\t'=2+2");
    for (const [line, separator] of [
      [semicolon, ';'],
      [tab, '\t'],
    ] as const) {
      for (const cell of Papa.parse<string[]>(line, { delimiter: separator }).data.flat()) {
        expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      }
    }
  });

  it('defuses every segment the import could split a cell into, and leaves plain ones alone', () => {
    expect(neutralizeFormula('a,@SUM(A1);b\t+cmd')).toBe("a,'@SUM(A1);b\t'+cmd");
    expect(neutralizeFormula('x; =1')).toBe("x;' =1");
    expect(neutralizeFormula('a\t\t=1')).toBe("a\t'\t'=1");
    expect(neutralizeFormula('\tplain')).toBe("'\tplain");
    // A number behind a separator too: a sheet that does not split there reads what follows with it.
    expect(neutralizeFormula('total; -3')).toBe("total;' -3");
    expect(neutralizeFormula('a, b; c')).toBe('a, b; c');
  });

  it('keeps phone numbers and negative numbers as they are', () => {
    expect(neutralizeFormula('+15551234567')).toBe('+15551234567');
    expect(neutralizeFormula('+44 (20) 7946 0958')).toBe('+44 (20) 7946 0958');
    expect(neutralizeFormula('-3')).toBe('-3');
  });

  it('writes a lone phone number in a phone column so spreadsheets keep it as text', () => {
    const phoneColumns: CsvColumn<Row>[] = [{ header: 'number', value: (row) => row.number, phone: true }];
    const rows = toCsv(phoneColumns, [
      { number: '+15551234567', text: '' },
      { number: '=cmd|calc', text: '' },
    ]).split('\r\n');
    expect(rows[1]).toBe('"=""+15551234567"""');
    // Anything but a bare number is never put inside the formula.
    expect(rows[2]).toBe("'=cmd|calc");
  });

  it('reads every page of the filter until a short page', async () => {
    const all = Array.from({ length: 7 }, (_, index) => index);
    const requests: [number, number][] = [];
    const items = await fetchAllPages(async (limit, offset) => {
      requests.push([limit, offset]);
      return { items: all.slice(offset, offset + limit) };
    }, 3);
    expect(items).toEqual(all);
    expect(requests).toEqual([
      [3, 0],
      [3, 3],
      [3, 6],
    ]);
  });

  it('stops at X-Total-Count without asking for an empty page', async () => {
    const requests: number[] = [];
    const items = await fetchAllPages(async (limit, offset) => {
      requests.push(offset);
      return { items: Array.from({ length: limit }, (_, index) => offset + index), total: 4 };
    }, 2);
    expect(items).toEqual([0, 1, 2, 3]);
    expect(requests).toEqual([0, 2]);
  });
});
