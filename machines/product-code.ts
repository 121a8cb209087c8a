/**
 * Product codes (GS1 GTINs: UPC-A, EAN-13, EAN-8, GTIN-14) and their check digit (docs/decisions/074).
 * The one place these rules live: the item form, the scan stations, the scan calls and the uploads
 * read them here. Two rules:
 * - A code whose check digit fails is taken but flagged (productCodeMessages.checkDigit): catalogs and
 *   records already hold such codes, and a refusal would stop a clerk with a parcel in hand.
 * - A product code is not a tracking id: a valid GTIN that names a catalog item, read where a tracking
 *   id is expected (a scanner that missed the courier label), is refused with notTrackingId.
 * A spreadsheet turns UPC `045496883386` into the number 45496883386: restoreLeadingZeros gives the
 * zero back when the 12-digit form passes the check digit. Codes are compared by productCodeKey (one
 * key per product however its code is written, decision 075). Pure: imports nothing.
 */

export type GtinKind = 'EAN-8' | 'UPC-A' | 'EAN-13' | 'GTIN-14';

const KIND_BY_LENGTH: Readonly<Record<number, GtinKind>> = { 8: 'EAN-8', 12: 'UPC-A', 13: 'EAN-13', 14: 'GTIN-14' };

export const productCodeMessages = {
  /** A code shaped like a GTIN whose last digit is not its check digit (a misread or a typo). */
  checkDigit: 'UPC校验位不正确，请核对',
  /** A catalog item's product code read where a tracking id was expected. */
  notTrackingId: '这是商品条码（UPC），不是快递单号：请扫描包裹上的快递面单',
} as const;

/** The kind of GTIN a code is shaped like (8, 12, 13 or 14 digits), or null; the check digit is not asked. */
export function gtinKind(code: string): GtinKind | null {
  const c = code.trim();
  return /^\d+$/.test(c) ? (KIND_BY_LENGTH[c.length] ?? null) : null;
}

/** The GS1 mod-10 check digit of a code's digits before it (weights 3, 1, 3, ... from the right). */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

/** Whether a GTIN-shaped code's last digit is its check digit (false for a code that is no GTIN). */
export function checkDigitOk(code: string): boolean {
  const c = code.trim();
  return gtinKind(c) !== null && gs1CheckDigit(c.slice(0, -1)) === Number(c[c.length - 1]);
}

/** A GTIN-shaped code whose check digit passes. */
export const isValidGtin = (code: string) => checkDigitOk(code);

/** A GTIN-shaped code whose check digit fails: flagged where it is typed, scanned or imported. */
export const failsCheckDigit = (code: string) => gtinKind(code) !== null && !checkDigitOk(code);

/**
 * The code with the leading zero a spreadsheet dropped: an 11-digit number whose 12-digit zero-padded
 * form passes the check digit is that UPC-A. Every other code is given back trimmed. (A 12-digit UPC-A
 * is already the EAN-13 that begins with 0, so nothing is restored to 13 digits; shorter numbers are
 * left alone: a 7-digit number is too likely to be something else to be called an EAN-8.)
 */
export function restoreLeadingZeros(code: string): string {
  const c = code.trim();
  if (/^\d{11}$/.test(c) && checkDigitOk(`0${c}`)) return `0${c}`;
  return c;
}

/**
 * Every written form of one valid GTIN (8, 12, 13 and 14 digits, leading zeros added or dropped: the
 * forms whose GTIN-14 is the same), for finding a catalog item by a scanned code; [] for a code that is
 * not a valid GTIN.
 */
export function gtinForms(code: string): string[] {
  const c = restoreLeadingZeros(code);
  if (!isValidGtin(c)) return [];
  const digits = c.replace(/^0+/, '');
  return [8, 12, 13, 14].filter((n) => digits.length <= n).map((n) => digits.padStart(n, '0'));
}

/**
 * The one key a product code is compared by (decision 075): matching, the scan stations' duplicates
 * and the uploads ask whether two codes name one product by comparing keys. A valid GTIN (after
 * restoreLeadingZeros) is its GTIN-14 - `045496883386`, `0045496883386`, `00045496883386` and a
 * spreadsheet's `45496883386` are one key - and any other code is itself, trimmed and in upper case
 * (no catalog tells `b0abc` from `B0ABC`). Idempotent. Stored codes keep what was typed or scanned;
 * the key is computed where codes are compared.
 */
export function productCodeKey(code: string): string {
  const c = restoreLeadingZeros(code);
  return isValidGtin(c) ? c.padStart(14, '0') : c.toUpperCase();
}

/** Whether two product codes name one product (their productCodeKey is the same). */
export const sameProductCode = (a: string, b: string) => productCodeKey(a) === productCodeKey(b);

/** Whether two codes are the same valid GTIN, however written. */
export function sameGtin(a: string, b: string): boolean {
  const forms = gtinForms(a);
  return forms.length > 0 && forms.includes(restoreLeadingZeros(b));
}

/**
 * Whether a code read where a tracking id is expected is a product code of the given catalog items
 * (a valid GTIN equal to one of their upcs, however written): then it is not a tracking id.
 */
export function isCatalogProductCode(code: string, upcs: Iterable<string | null | undefined>): boolean {
  if (gtinForms(code).length === 0) return false;
  for (const upc of upcs) if (upc && sameGtin(code, upc)) return true;
  return false;
}
