/**
 * The carrier of a tracking id (decision 097), recognised with ts-tracking-number (the public
 * tracking_number_data patterns and check digits) on the id's canonical key (tracking-id.ts); a
 * failed check digit is a warning where the id is typed, never a refusal. A file of its own: the
 * patterns are ~25 kB brotli, which a page that only shows or compares ids need not load first
 * (the web loads this file on demand: components/tracking-ids.tsx, decision 179).
 */
import { allCouriers, getTracking, type TrackingCourier } from 'ts-tracking-number';
import { canonicalTrackingId } from './tracking-id';

export type CarrierCode = 'ups' | 'fedex' | 'usps' | 'dhl' | 'amazon' | 'ontrac' | 'chinapost' | 'sf' | 's10';

export interface Carrier {
  code: CarrierCode;
  /** The name shown to a Chinese-speaking member or clerk. */
  name: string;
  nameEn: string;
  /** False when the id has the carrier's form but its check digit fails: a warning, never a refusal. */
  checkDigitOk: boolean;
}

const NAMES: Record<CarrierCode, [string, string]> = {
  ups: ['UPS', 'UPS'],
  fedex: ['FedEx', 'FedEx'],
  usps: ['USPS（美国邮政）', 'USPS'],
  dhl: ['DHL', 'DHL'],
  amazon: ['亚马逊物流', 'Amazon Logistics'],
  ontrac: ['OnTrac', 'OnTrac'],
  chinapost: ['中国邮政/EMS', 'China Post/EMS'],
  sf: ['顺丰速运', 'SF Express'],
  s10: ['国际邮政', 'International post (UPU S10)'],
};

const carrier = (code: CarrierCode, checkDigitOk: boolean): Carrier => ({ code, name: NAMES[code][0], nameEn: NAMES[code][1], checkDigitOk });

// The same patterns without their check digits: an id of a carrier's form whose digit fails. Made at
// the first id that needs them, not when a page loads this file.
let withoutCheckDigits: readonly TrackingCourier[] | null = null;
const WITHOUT_CHECK_DIGITS = (): readonly TrackingCourier[] =>
  (withoutCheckDigits ??= allCouriers.map((c) => ({
    ...c,
    tracking_numbers: c.tracking_numbers.map((t) => ({ ...t, validation: { ...t.validation, checksum: undefined } })),
  })));

// Only forms that say their carrier by themselves get the check-digit warning (letters such as 1Z,
// TBA or an S10 country; USPS's 9x 20/22 digits): a bare run of digits that fails every check is
// no carrier's, not a carrier's with a typo.
const DISTINCTIVE = /[A-Z]|^9[1-5]\d{18}(\d{2})?$/;
// SF Express: "SF" + 12 or 13 digits (no public check digit).
const SF = /^SF\d{12,13}$/;

function codeOf(courier: string, key: string): CarrierCode {
  if (courier === 's10') return key.endsWith('CN') ? 'chinapost' : 's10';
  return courier as CarrierCode;
}

/** The carrier of a tracking id (any written form), or null when no known carrier writes it so. */
export function carrierOf(raw: string): Carrier | null {
  // An empty key fits no pattern: null.
  const key = canonicalTrackingId(raw);
  if (SF.test(key)) return carrier('sf', true);
  const valid = getTracking(key);
  if (valid) return carrier(codeOf(valid.courier.code, key), true);
  if (!DISTINCTIVE.test(key)) return null;
  const shaped = getTracking(key, WITHOUT_CHECK_DIGITS());
  return shaped ? carrier(codeOf(shaped.courier.code, key), false) : null;
}
