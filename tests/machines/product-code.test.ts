// Product codes and their check digit (machines/product-code.ts, decision 074): real codes, and the
// GS1 mod-10 rule over every code fast-check can write.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkDigitOk,
  failsCheckDigit,
  gs1CheckDigit,
  gtinForms,
  gtinKind,
  isCatalogProductCode,
  productCodeKey,
  restoreLeadingZeros,
  sameGtin,
  sameProductCode,
} from '../../machines/product-code';

// Codes printed on real products and in GS1's own examples.
const REAL = [
  ['045496883386', 'UPC-A'], // Nintendo Switch console
  ['036000291452', 'UPC-A'], // the UPC-A of GS1's and Wikipedia's example
  ['4901234567894', 'EAN-13'],
  ['96385074', 'EAN-8'],
  ['10614141000415', 'GTIN-14'], // GS1 US's GTIN-14 example (a case of 0614141000418...)
] as const;

describe('the kind of a product code and its check digit', () => {
  it('names the kind by length and passes the check digit of real codes', () => {
    for (const [code, kind] of REAL) {
      expect(gtinKind(code)).toBe(kind);
      expect(checkDigitOk(code)).toBe(true);
      expect(failsCheckDigit(code)).toBe(false);
    }
  });

  it('fails a code one digit off, and calls no code a GTIN that is not 8, 12, 13 or 14 digits', () => {
    expect(checkDigitOk('045496883387')).toBe(false);
    expect(failsCheckDigit('045496883387')).toBe(true);
    expect(checkDigitOk('4901234567895')).toBe(false);
    for (const code of ['', '1Z999AA10123456784', '45496883386', 'TBA123456789000', '12345 678', '123456789012345']) {
      expect(gtinKind(code)).toBeNull();
      expect(checkDigitOk(code)).toBe(false);
    }
    expect(gtinKind('45496883386')).toBeNull();
    expect(gtinKind('1Z999AA10123')).toBeNull();
    expect(failsCheckDigit('1Z999AA10123456784')).toBe(false);
  });

  it('catches every single wrong digit (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(7, 11, 12, 13), fc.nat(), fc.integer({ min: 1, max: 9 }), (bodyLength, seed, shift) => {
        const body = String(seed).padStart(bodyLength, '0').slice(-bodyLength);
        const code = `${body}${gs1CheckDigit(body)}`;
        expect(checkDigitOk(code)).toBe(true);
        const at = seed % code.length;
        const wrong = `${code.slice(0, at)}${(Number(code[at]) + shift) % 10}${code.slice(at + 1)}`;
        expect(checkDigitOk(wrong)).toBe(false);
      }),
    );
  });
});

describe('leading zeros a spreadsheet dropped', () => {
  it('gives the Nintendo Switch UPC its zero back, and leaves every other code as it is', () => {
    expect(restoreLeadingZeros('45496883386')).toBe('045496883386');
    expect(restoreLeadingZeros(' 45496883386 ')).toBe('045496883386');
    // 11 digits whose padded form fails: not a UPC, left alone.
    expect(restoreLeadingZeros('45496883387')).toBe('45496883387');
    for (const code of ['045496883386', '4901234567894', '96385074', '1Z999AA10123456784', '12345678901', 'ABC']) {
      expect(restoreLeadingZeros(code)).toBe(code.trim());
    }
  });

  it('restores exactly the 11-digit codes whose 12-digit form is a valid UPC-A, and is idempotent (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{11}$/), (code) => {
        const restored = restoreLeadingZeros(code);
        expect(restored).toBe(checkDigitOk(`0${code}`) ? `0${code}` : code);
        expect(restoreLeadingZeros(restored)).toBe(restored);
      }),
    );
  });
});

describe('one product however its code is written', () => {
  it('finds the same GTIN in its 12-, 13- and 14-digit forms and after a dropped zero', () => {
    expect(gtinForms('045496883386')).toEqual(['045496883386', '0045496883386', '00045496883386']);
    expect(sameGtin('045496883386', '0045496883386')).toBe(true);
    expect(sameGtin('45496883386', '045496883386')).toBe(true);
    expect(sameGtin('96385074', '00000096385074')).toBe(true);
    expect(sameGtin('045496883386', '4901234567894')).toBe(false);
    expect(gtinForms('045496883387')).toEqual([]);
    // From the GTIN-14 a case label carries, back to the UPC-A of the catalog.
    expect(gtinForms('00045496883386')).toEqual(['045496883386', '0045496883386', '00045496883386']);
    expect(sameGtin('00045496883386', '045496883386')).toBe(true);
  });

  it('reads a code pasted with blanks around it as the code', () => {
    expect(gtinKind(' 045496883386 ')).toBe('UPC-A');
    expect(checkDigitOk('045496883386 ')).toBe(true);
    expect(checkDigitOk(' 045496883386')).toBe(true);
  });

  it('calls a code a product code of the catalog only when it is a valid GTIN of one of its upcs', () => {
    const upcs = ['045496883386', null, '', 'SKU-7', '4901234567895'];
    expect(isCatalogProductCode('045496883386', upcs)).toBe(true);
    expect(isCatalogProductCode('0045496883386', upcs)).toBe(true);
    // A catalog upc whose check digit fails is no GTIN: a code equal to it is not called one.
    expect(isCatalogProductCode('4901234567895', upcs)).toBe(false);
    expect(isCatalogProductCode('4901234567894', upcs)).toBe(false);
    expect(isCatalogProductCode('1Z999AA10123456784', upcs)).toBe(false);
    expect(isCatalogProductCode('SKU-7', upcs)).toBe(false);
  });
});

// Decision 075: matching, the stations' duplicates and the uploads compare this one key.
describe('the one key of a product code', () => {
  it('gives every written form of one GTIN its GTIN-14, and any other code itself trimmed in upper case', () => {
    for (const form of ['045496883386', '0045496883386', '00045496883386', '45496883386', ' 045496883386\t'])
      expect(productCodeKey(form), form).toBe('00045496883386');
    expect(productCodeKey('96385074')).toBe('00000096385074');
    expect(productCodeKey('000096385074')).toBe('00000096385074');
    expect(productCodeKey('4901234567894')).toBe('04901234567894');
    // A code whose check digit fails, a non-GTIN length, a code with letters: themselves.
    expect(productCodeKey('045496883387')).toBe('045496883387');
    expect(productCodeKey('0045496883387')).toBe('0045496883387');
    expect(productCodeKey('45496883387')).toBe('45496883387');
    expect(productCodeKey(' sku-7 ')).toBe('SKU-7');
    expect(sameProductCode('045496883386', '0045496883386')).toBe(true);
    expect(sameProductCode('sku-7', 'SKU-7')).toBe(true);
    // A failing code is not its zero-padded form: its digits say nothing certain.
    expect(sameProductCode('045496883387', '0045496883387')).toBe(false);
    expect(sameProductCode('045496883386', '4901234567894')).toBe(false);
  });

  const gtin = fc
    .tuple(fc.constantFrom(7, 11, 12, 13), fc.stringMatching(/^[0-9]{13}$/))
    .map(([n, digits]) => digits.slice(0, n))
    .map((body) => `${body}${gs1CheckDigit(body)}`);

  it('is idempotent over any code (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^ ?[0-9]{7,15} ?$/), gtin), (code) => {
        const key = productCodeKey(code);
        expect(productCodeKey(key)).toBe(key);
      }),
    );
  });

  it('gives all forms of one GTIN one key, which is no other GTIN’s (property)', () => {
    fc.assert(
      fc.property(gtin, gtin, (a, b) => {
        // Its 8-, 12-, 13- and 14-digit forms, and a UPC-A's 11 digits after a spreadsheet dropped its zero.
        const dropped = a.length === 12 && a.startsWith('0') ? [a.slice(1)] : [];
        const keys = new Set([...gtinForms(a), ...dropped].map(productCodeKey));
        expect([...keys]).toEqual([productCodeKey(a)]);
        expect(productCodeKey(a)).toHaveLength(14);
        expect(sameProductCode(a, b)).toBe(a.replace(/^0+/, '') === b.replace(/^0+/, ''));
      }),
    );
  });

  it('is itself for a code that is no valid GTIN, written trimmed in upper case (property)', () => {
    const other = fc.stringMatching(/^[0-9A-Z][0-9A-Z-]{0,20}[0-9A-Z]$/).filter((c) => gtinForms(c).length === 0);
    fc.assert(
      fc.property(other, (code) => {
        expect(productCodeKey(code)).toBe(code);
      }),
    );
  });
});
