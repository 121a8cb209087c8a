/**
 * A tracking id in one canonical form (decision 097): what lookups, duplicates and matching compare.
 * The same parcel reaches the app written many ways - typed from a courier site with spaces or
 * dashes, in full-width digits from a Chinese input method, with an invisible character pasted from
 * a web page, or read by a scanner with its AIM symbology prefix, GS1 separators, USPS IMpb routing
 * or FedEx's 34-digit barcode - and every way must give one key, or the parcel never matches.
 * Pure (web and server both import it); what the member typed is kept beside the key for display.
 * The carrier of an id is machines/carrier.ts (apart: its patterns are most of the bytes, and a page
 * that only compares ids does not load them).
 */
import { hasControlChars, MAX_SCAN_TEXT, scanRecordMessages } from './scan-record.machine';

/** GS1's FNC1 as a scanner sends it (ASCII group separator): a field separator, never part of the id. */
export const GS1_SEPARATOR = '\u001d';

// Invisible characters a paste carries: format characters (zero-width space/joiners U+200B-U+200D,
// word joiner U+2060, BOM U+FEFF, soft hyphen U+00AD, bidi marks), plus fillers that render as
// nothing (combining grapheme joiner, Mongolian vowel separator, Hangul fillers).
const INVISIBLE = /[\p{Cf}\u034F\u180E\u115F\u1160\u3164\uFFA0]/gu;
// Control characters (the scanner's GS is handled before these go).
// eslint-disable-next-line no-control-regex -- removing control characters is this rule's purpose
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/g;
// Whitespace and dashes inside an id are how people group it ("1Z 999 AA1", "7723-1234-5678").
const SPACES_AND_DASHES = /[\s\p{Pd}\u2212\u30FC\uFF70]/gu;
// AIM symbology identifier: "]" + code letter + modifier digit (]C1 GS1-128, ]E0 EAN, ]d2 GS1
// DataMatrix, ]Q3 QR...), sent first by scanners configured to announce the symbology.
const AIM_PREFIX = /^\][A-Za-z][0-9]/;
// GS1 application identifiers of routing data that precede the tracking id on a label: 420 ship-to
// postal code (domestic), 421 ship-to postal code with a 3-digit ISO country code.
const ROUTING_FIELD = /^42[01]/;
// USPS IMpb: "420" + 5- or 9-digit ZIP, then the 20- or 22-digit tracking id.
const USPS_IMPB = /^420(?:\d{5}|\d{9})(\d{20}|\d{22})$/;
// FedEx's 34-digit barcode: "96" + SCNC, service, shipper data, then the tracking number in its
// last 14 digits (a 12-digit FedEx number is padded with two zeros; a 15-digit Ground number runs one
// digit further). The 22-digit "96" Ground barcode ends with the 15-digit Ground number.
const FEDEX_34 = /^96\d{32}$/;
const FEDEX_96_22 = /^96\d{20}$/;

const stripAim = (s: string): string => {
  let t = s;
  while (AIM_PREFIX.test(t)) t = t.slice(3);
  return t;
};

/**
 * A GS1 read split at FNC1 (spaces already gone): the routing fields (AI 420/421) go, the rest is
 * the id. Fields that are all routing are kept (an IMpb's 420+ZIP+id in one field; carrierNumber
 * takes its id), also after a leading FNC1 sent as GS.
 */
function gs1Payload(s: string): string {
  const fields = s.split(GS1_SEPARATOR).filter((f) => f !== '');
  const kept = fields.filter((f) => !ROUTING_FIELD.test(f));
  return (kept.length ? kept : fields).join('');
}

/** The carrier's own number inside a label barcode that carries more than the id. */
function carrierNumber(s: string): string {
  const usps = USPS_IMPB.exec(s);
  if (usps) return usps[1]!;
  if (FEDEX_34.test(s)) return s.slice(-14).startsWith('00') ? s.slice(-12) : s.slice(-15);
  if (FEDEX_96_22.test(s)) return s.slice(-15);
  return s;
}

function once(raw: string): string {
  let s = raw.normalize('NFKC').replace(INVISIBLE, '').toUpperCase().normalize('NFKC').trim();
  s = stripAim(s).replace(SPACES_AND_DASHES, '');
  s = gs1Payload(s).replace(CONTROL, '');
  s = stripAim(s);
  return carrierNumber(s);
}

/**
 * The canonical key of a tracking id: trimmed; invisible characters removed; full-width to
 * half-width (NFKC); upper case; inner spaces and dashes removed; scanner decorations understood
 * (AIM prefix, GS1 FNC1 with its 420/421 routing field, USPS `420`+ZIP, FedEx's 34-digit and
 * 22-digit barcodes). Idempotent: the key of a key is itself. '' when nothing is left.
 */
export function canonicalTrackingId(raw: string): string {
  // A key already (what scanners and the screens send, and every lookup after the first): no pass
  // changes it, so none is run (the three passes cost a lookup ~2.6 KB of garbage: decision 177).
  if (isSettledKey(raw)) return raw;
  // Upper-casing and NFKC can each expose a case for the other on rare letters, and a first pass
  // can expose another barcode form; the passes after it settle them, so the key of a key is always
  // the key (a pass over a settled key changes nothing).
  return once(once(once(raw)));
}

// Digits and upper-case ASCII letters only: NFKC, upper-casing, trimming and the removals leave such
// a text as it is, and it has no AIM prefix (']') or GS1 separator.
const PLAIN_KEY = /^[0-9A-Z]+$/;
/** `once` leaves `s` as it is: plain, and no label barcode whose carrier number is a part of it. */
const isSettledKey = (s: string) => PLAIN_KEY.test(s) && carrierNumber(s) === s;

/**
 * Why a written tracking id cannot be taken, or null: its key is empty ('请填写trackingId') or longer
 * than 64 characters, or it holds a control character other than the scanner's GS (which the key
 * consumes). The screens, the server's calls and the uploads all ask this.
 */
export function trackingIdError(raw: string): string | null {
  const key = canonicalTrackingId(raw);
  if (!key) return scanRecordMessages.trackingIdRequired;
  if (key.length > MAX_SCAN_TEXT) return scanRecordMessages.trackingIdTooLong;
  // The key holds no control character: a text that is its own key has none to refuse.
  if (key !== raw && raw.split(GS1_SEPARATOR).some(hasControlChars)) return scanRecordMessages.trackingIdInvalid;
  return null;
}

/**
 * An unknown parcel as members see it (decision 169, DECISIONS "Receiving and matching"): its
 * canonical key masked but for its last UNKNOWN_PARCEL_VISIBLE characters, enough for the owner to
 * recognise it, too few to claim it without the full id from the shop or the carrier.
 */
export const UNKNOWN_PARCEL_VISIBLE = 6;
export const maskTrackingId = (key: string): string => `****${key.slice(-UNKNOWN_PARCEL_VISIBLE)}`;

/** Two written forms name the same parcel. */
export const sameTrackingId = (a: string, b: string): boolean => canonicalTrackingId(a) === canonicalTrackingId(b);

// ------------------------------------------------------------------ near misses

/**
 * Keys shorter than this have no near misses (decision 098): a real carrier's id is 10 characters or
 * more (DHL 10, FedEx 12, SF 14, UPS 18, USPS 22), and shorter ones - a shop's own numbering, a test
 * id - run in sequences where every id is one edit from ten others: noise, not a clerk's second look.
 */
export const NEAR_MIN_LENGTH = 10;
/**
 * Keys sharing at least this many last characters are near whatever comes before (a prefix dropped
 * or added). NEAR_MIN_LENGTH itself: every key compared is at least that long.
 */
export const NEAR_SHARED_SUFFIX = NEAR_MIN_LENGTH;

/** Levenshtein distance exactly 1: one character inserted, deleted or substituted (O(length)). */
export function isOneEditApart(a: string, b: string): boolean {
  if (a === b) return false;
  let i = 0;
  while (a[i] === b[i]) i++; // they differ somewhere (at the shorter's end at the latest)
  // Past the first difference the rest must be equal: after one substitution (one length) or one
  // insertion into the longer. Keys two or more apart in length never leave equal rests.
  return a.slice(a.length >= b.length ? i + 1 : i) === b.slice(b.length >= a.length ? i + 1 : i);
}

/**
 * Two canonical keys (canonicalTrackingId) that are not equal but probably name one parcel: one
 * edit apart (a member's typo, a dropped or doubled digit), or both at least NEAR_SHARED_SUFFIX long
 * and sharing their last NEAR_SHARED_SUFFIX characters (a prefix a courier site or a scanner added
 * or dropped). Both at least NEAR_MIN_LENGTH long. Symmetric. The clerk's 可能是… and the member's
 * hint both ask this (decision 098); the server finds the candidates, this decides.
 */
export function isNearTrackingId(a: string, b: string): boolean {
  if (a === b || a.length < NEAR_MIN_LENGTH || b.length < NEAR_MIN_LENGTH) return false;
  if (a.slice(-NEAR_SHARED_SUFFIX) === b.slice(-NEAR_SHARED_SUFFIX)) return true;
  return isOneEditApart(a, b);
}

/** A record near a tracking id no member recorded, as the clerk is shown it. */
export interface NearMissRef {
  /** What the member typed (else the key). */
  trackingId: string;
  taskDisplayId: string;
  nickName?: string;
}

/** The words of a near miss (decision 098). */
export const nearMissMessages = {
  /** The scan stations, beside 没有会员记录此快递单号: the admin side may see whose record it is. */
  clerk: (near: readonly NearMissRef[]) =>
    `可能是 ${near.map((n) => `${n.trackingId}（任务 ${n.taskDisplayId}${n.nickName ? `，会员 ${n.nickName}` : ''}）`).join('、')}`,
  /** The tracking upload's result row: appended to the row's message. */
  upload: (msg: string, near: readonly NearMissRef[]) => `${msg}；可能是 ${near.map((n) => `${n.trackingId}（任务 ${n.taskDisplayId}）`).join('、')}`,
  /** The member's record none of whose parcel arrived, when a parcel nobody recorded arrived with a near id. */
  member: (arrived: string) => `有快递单号相近的包裹已到货：${arrived}，请核对您填写的快递单号`,
} as const;
