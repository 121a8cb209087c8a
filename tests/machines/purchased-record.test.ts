// The purchased record's rules and the paste parser (machines/purchased-record.ts, decision 105),
// asked the way the paste box's preview and the server ask them.
import { describe, expect, it } from 'vitest';
import {
  BULK_MAX_LINES,
  bulkMessages,
  parsePurchasedLines,
  pasteIsClean,
  purchasedInputError,
  purchasedRecordMessages as m,
  unitsLeftToRecord,
} from '../../machines/purchased-record';

const view = (text: string, target = {}) => parsePurchasedLines(text, target).lines.map((l) => [l.line, l.tracking, l.qty, l.ok ? 'ok' : l.msg]);

describe("a record's input (the record dialog's checks)", () => {
  it('needs a trimmed tracking id of 1..64 characters without control characters, and a whole count 1..1000000', () => {
    expect(purchasedInputError({ trackingId: ' 1Z9 ', productCount: 1 })).toBeNull();
    expect(purchasedInputError({ trackingId: '  ', productCount: 1 })).toBe(m.trackingIdRequired);
    expect(purchasedInputError({ productCount: 1 })).toBe(m.trackingIdRequired);
    expect(purchasedInputError({ trackingId: 'x'.repeat(65), productCount: 1 })).toBe(m.trackingIdTooLong);
    expect(purchasedInputError({ trackingId: 'x'.repeat(64), productCount: 1 })).toBeNull();
    expect(purchasedInputError({ trackingId: 'A\u0000B', productCount: 1 })).toBe(m.trackingIdInvalid);
    for (const n of [0, -1, 1.5, 1_000_001, '2', undefined]) expect(purchasedInputError({ trackingId: 'T', productCount: n })).toBe(m.countRequired);
    expect(purchasedInputError({ trackingId: 'T', productCount: 1_000_000 })).toBeNull();
  });
});

describe('parsing a paste of `tracking [quantity]` lines', () => {
  it('splits on tabs, spaces, commas and semicolons (ASCII or full width), any line ending, skipping blank lines', () => {
    const text = '1Z001\t3\r\n\r\n1Z002,2\r1Z003 ; 4\n  1Z004  \n\t \n1Z005，5\n1Z006；6\n1Z007\u30007';
    expect(view(text)).toEqual([
      [1, '1Z001', 3, 'ok'],
      [3, '1Z002', 2, 'ok'],
      [4, '1Z003', 4, 'ok'],
      [5, '1Z004', 1, 'ok'],
      [7, '1Z005', 5, 'ok'],
      [8, '1Z006', 6, 'ok'],
      [9, '1Z007', 7, 'ok'],
    ]);
    expect(pasteIsClean(parsePurchasedLines(text))).toBe(true);
  });

  it('takes quantity 1 when a line has none, and refuses a quantity that is not a whole number 1..1000000', () => {
    expect(view('A\nB 0\nC -2\nD 1.5\nE 2件\nF 1000001\nG 1000000')).toEqual([
      [1, 'A', 1, 'ok'],
      [2, 'B', 0, bulkMessages.quantityInvalid],
      [3, 'C', null, bulkMessages.quantityInvalid],
      [4, 'D', null, bulkMessages.quantityInvalid],
      [5, 'E', null, bulkMessages.quantityInvalid],
      [6, 'F', 1000001, bulkMessages.quantityInvalid],
      [7, 'G', 1000000, 'ok'],
    ]);
  });

  it('refuses more than two fields, an overlong or control-character tracking id, and a repeat on its later lines', () => {
    expect(view(`A 1 x\n${'y'.repeat(65)}\nB\u0001C 1\nD 1\nE\nD 2\nD`)).toEqual([
      [1, 'A', 1, bulkMessages.tooManyFields],
      [2, 'y'.repeat(65), 1, m.trackingIdTooLong],
      [3, 'B\u0001C', 1, m.trackingIdInvalid],
      [4, 'D', 1, 'ok'],
      [5, 'E', 1, 'ok'],
      [6, 'D', 2, bulkMessages.duplicate(4)],
      [7, 'D', 1, bulkMessages.duplicate(4)],
    ]);
  });

  it('checks against the task when told it: a tracking id it has, and the units past its count', () => {
    expect(view('OLD 1\nN1 2\nN2 1\nN3 1', { recorded: ['OLD'], count: 5, recordedUnits: 2 })).toEqual([
      [1, 'OLD', 1, m.alreadyRecorded],
      [2, 'N1', 2, 'ok'],
      [3, 'N2', 1, 'ok'],
      [4, 'N3', 1, m.overCount(5)],
    ]);
    // Without the task, only the lines themselves are judged (the server checks the rest under its locks).
    expect(view('OLD 1\nN1 9')).toEqual([
      [1, 'OLD', 1, 'ok'],
      [2, 'N1', 9, 'ok'],
    ]);
  });

  it('says how many units a task can still take: none once its records hold its count (the paste box offers it no more)', () => {
    expect(unitsLeftToRecord({ count: 5, recordedUnits: 2 })).toBe(3);
    expect(unitsLeftToRecord({ count: 5, recordedUnits: 5 })).toBe(0);
    // A count lowered below the recorded units leaves none, never a negative number.
    expect(unitsLeftToRecord({ count: 2, recordedUnits: 3 })).toBe(0);
    expect(view('N1', { count: 5, recordedUnits: 5 })).toEqual([[1, 'N1', 1, m.overCount(5)]]);
  });

  it('is a fault of the whole paste when it has no line or more than the most lines', () => {
    expect(parsePurchasedLines(' \n\t\n')).toEqual({ lines: [], error: bulkMessages.empty });
    const many = Array.from({ length: BULK_MAX_LINES + 1 }, (_, i) => `T${i}`).join('\n');
    expect(parsePurchasedLines(many).error).toBe(bulkMessages.tooManyLines(BULK_MAX_LINES));
    expect(parsePurchasedLines(many.split('\n').slice(1).join('\n')).error).toBeNull();
    expect(pasteIsClean(parsePurchasedLines(many))).toBe(false);
    expect(pasteIsClean(parsePurchasedLines('A\nA'))).toBe(false);
  });

  // Decision 097: one parcel written two ways is a repeat; a recorded id matches in any form.
  it('compares canonical tracking ids: a repeat written differently, an id the task has in another form', () => {
    expect(view('1Z999AA10123456784\n１ｚ９９９ａａ１０１２３４５６７８４ 2\n]C1TBA123456789000', { recorded: ['tba123456789000'] })).toEqual([
      [1, '1Z999AA10123456784', 1, 'ok'],
      [2, '１ｚ９９９ａａ１０１２３４５６７８４', 2, bulkMessages.duplicate(1)],
      [3, ']C1TBA123456789000', 1, m.alreadyRecorded],
    ]);
  });

  // Decision 105 as amended: a carrier's id pasted whole, spaced as couriers print it, is one id.
  it.each([
    ['UPS as UPS prints it', '1Z 999 AA1 01 2345 6784', ['1Z 999 AA1 01 2345 6784', 1]],
    ['UPS with a quantity', '1Z 999 AA1 01 2345 6784 3', ['1Z 999 AA1 01 2345 6784', 3]],
    ['UPS after a tab, quantity in the next column', '1Z 5R8 939 03 5756 7127\t2', ['1Z 5R8 939 03 5756 7127', 2]],
    ['USPS in groups of 4', '9400 1000 0000 0000 0000 06', ['9400 1000 0000 0000 0000 06', 1]],
    ['USPS in groups of 4 with a quantity', '9400 1000 0000 0000 0000 06, 2', ['9400 1000 0000 0000 0000 06', 2]],
    ['FedEx 12 digits 4-4-4', '9865 7878 8855', ['9865 7878 8855', 1]],
    ['FedEx 12 digits 4-4-4 with a quantity', '9865 7878 8855 2', ['9865 7878 8855', 2]],
    ['FedEx 15 digits 4-4-4-3', '0414 4176 0228 964', ['0414 4176 0228 964', 1]],
    ['a dashed group among spaced ones', '1Z 999-AA1 01 2345-6784 2', ['1Z 999-AA1 01 2345-6784', 2]],
  ])('reads %s as one tracking id', (_, text, [tracking, qty]) => {
    expect(view(text)).toEqual([[1, tracking, qty, 'ok']]);
  });

  it('keeps refusing a line of more than two fields that is not exactly one carrier id (two ids, a bad check digit, a doubt)', () => {
    expect(view('1Z999AA10123456784 1Z5R89390357567127 1')).toEqual([[1, '1Z999AA10123456784', null, bulkMessages.tooManyFields]]);
    expect(view('9865 7878 8855 9865 7878 8855')).toEqual([[1, '9865', 7878, bulkMessages.tooManyFields]]);
    // UPS's form with a check digit that fails: not joined (it may be two things), refused as before.
    expect(view('1Z 999 AA1 01 2345 6785')).toEqual([[1, '1Z', 999, bulkMessages.tooManyFields]]);
    // Both readings are a carrier's: FedEx's 15-digit 986578788855101, or its 12 digits x 101 units.
    expect(view('9865 7878 8855 101')).toEqual([[1, '9865', 7878, bulkMessages.tooManyFields]]);
    // A quantity that is not one is still refused, after the id is joined.
    expect(view('9865 7878 8855 0')).toEqual([[1, '9865 7878 8855', 0, bulkMessages.quantityInvalid]]);
    // A last field with more than digits is no quantity: the fields before it are not joined.
    expect(view('9865 7878 8855 x2')).toEqual([[1, '9865', 7878, bulkMessages.tooManyFields]]);
    expect(view('9865 7878 8855 2x')).toEqual([[1, '9865', 7878, bulkMessages.tooManyFields]]);
  });

  it('reads two fields as a tracking id and its quantity, even when together they would be a carrier id', () => {
    expect(view('986578 788855')).toEqual([[1, '986578', 788855, 'ok']]);
    expect(view('9865 7878 8855')).toEqual([[1, '9865 7878 8855', 1, 'ok']]);
  });

  it('gives an accepted line no message', () => {
    expect(parsePurchasedLines('A 2').lines).toEqual([{ line: 1, tracking: 'A', qty: 2, ok: true, msg: '' }]);
  });

  it('takes the spaced id as the key of its parcel: its repeats and an id the task has are found however written', () => {
    expect(view('1Z999AA10123456784\n1Z 999 AA1 01 2345 6784 2\n9865 7878 8855', { recorded: ['986578788855'] })).toEqual([
      [1, '1Z999AA10123456784', 1, 'ok'],
      [2, '1Z 999 AA1 01 2345 6784', 2, bulkMessages.duplicate(1)],
      [3, '9865 7878 8855', 1, m.alreadyRecorded],
    ]);
  });
});
