import { describe, expect, it } from 'vitest';
import { toCsv } from '../../renderer/src/format/csv.js';
import { parseCsvTable, parseCsvTableInTurns } from '../../server/contract/domain/csvTable.js';
import {
  placeholdersOf,
  placeholdersWithoutFallback,
  renderPlaceholders,
} from '../../server/contract/domain/placeholders.js';

describe('CSV files as spreadsheets write them', () => {
  it('reads Excel CSV: BOM, semicolons, quoted separators, quotes and line breaks, CRLF', () => {
    const table = parseCsvTable(
      '\uFEFFName;Phone\r\n"Berg; Anna";0171 1234567\r\n"Say ""hi""\nthere";\'0172 2\r\n\r\n',
    );
    expect(table).toEqual({
      columns: ['Name', 'Phone'],
      rows: [
        ['Berg; Anna', '0171 1234567'],
        ['Say "hi"\nthere', '0172 2'],
      ],
    });
  });

  it('reads back the numbers our export protects from spreadsheet conversion', () => {
    const csv = toCsv(
      [
        { header: 'Name', value: (row: { name: string; phone: string }) => row.name },
        { header: 'Phone', value: (row) => row.phone, phone: true },
      ],
      [{ name: 'Anna', phone: '+491711234567' }],
    );
    expect(csv).toBe('\uFEFFName,Phone\r\nAnna,"=""+491711234567"""\r\n');
    expect(parseCsvTable(csv).rows).toEqual([['Anna', '+491711234567']]);
  });

  it('reads a large file in turns as it reads it at once, quoted line breaks across chunks included', async () => {
    const row = (index: number) =>
      `"Berg; ${index}";0171 ${String(index).padStart(7, '0')};"line one\r\nline ""two"" of ${index}"`;
    const csv = `\uFEFFName;Phone;Notes\r\n${Array.from({ length: 6_000 }, (_, index) => row(index)).join('\r\n')}\r\n`;
    let turns = 0;
    const inTurns = await parseCsvTableInTurns(csv, async () => {
      turns++;
    });
    const atOnce = parseCsvTable(csv);
    expect(atOnce.rows).toHaveLength(6_000);
    expect(atOnce.rows[5_999]).toEqual(['Berg; 5999', '0171 0005999', 'line one\r\nline "two" of 5999']);
    expect(inTurns).toEqual(atOnce);
    // ≈ 430 KB in 64 KiB chunks.
    expect(turns).toBeGreaterThanOrEqual(6);
  });
});

describe('placeholders', () => {
  it('fills {name} and CSV columns without regard to case, and reports values that are missing or empty', () => {
    expect(placeholdersOf('Hello {Name}, order {order} ({name})')).toEqual(['name', 'order']);
    expect(
      renderPlaceholders('Hello {name}, your order {Order} is ready', { Name: 'Anna', order: 'A-7' }),
    ).toEqual({
      ok: true,
      text: 'Hello Anna, your order A-7 is ready',
    });
    expect(renderPlaceholders('Hello {name}, {order}', { name: ' ' })).toEqual({
      ok: false,
      missing: ['name', 'order'],
    });
  });

  it('fills {name|there} with its fallback when nobody has a name, and the name when someone has', () => {
    const text = 'Hello {name|there}, we open at {hours|9 am}.';
    expect(placeholdersOf(text)).toEqual(['name', 'hours']);
    expect(placeholdersWithoutFallback(text)).toEqual([]);
    expect(renderPlaceholders(text, { phone: '+15550001' })).toEqual({
      ok: true,
      text: 'Hello there, we open at 9 am.',
    });
    expect(renderPlaceholders(text, { name: 'Anna', hours: '' })).toEqual({
      ok: true,
      text: 'Hello Anna, we open at 9 am.',
    });
    // An empty fallback is a choice: "Hello{name|}" greets nobody by name.
    expect(renderPlaceholders('Hello {name|}!', {})).toEqual({ ok: true, text: 'Hello !' });
    // The same field once without a fallback still needs a value.
    expect(renderPlaceholders('{name|there}, {name}', {})).toEqual({ ok: false, missing: ['name'] });
    expect(placeholdersWithoutFallback('{name|there}, {Name}')).toEqual(['name']);
  });
});
