// What the camera counts as a scan (docs/decisions/082). Three rules, pure, on plain data: the camera
// component feeds each decoded frame to readFrame.
// - A field reads only the symbologies it can be (FIELD_SYMBOLOGIES): a tracking label is Code 128,
//   Code 39, ITF, PDF417, Data Matrix or QR; a product is UPC/EAN. The decoder is told which to try
//   (faster, and a product's UPC is never taken for a tracking id nor a label for a product). The
//   command barcodes (Code 128) are read in every field: they mean something everywhere.
// - A read counts after it was seen consistently: found in AGREE_FRAMES decoded frames, at most
//   PENDING_MISSES frames apart. A soft or noisy frame now and then decodes into a wrong code; the
//   same wrong code twice in a row is far rarer.
// - One read per presentation: a code in view stays in view while the decoder keeps finding it; it
//   has left only after it was missing from GONE_FRAMES consecutive decoded frames spanning at least
//   GONE_MS. Both, because a decoder misses a held code now and then (blur, glare), and a stalled page
//   decodes no frames at all: time alone would let a code held through a stall count again. A
//   different code counts at once.
import { scanCommandOf } from '../../../machines/scan-station';

/** The symbologies a camera can tell apart (the names of the browser's BarcodeDetector). */
export type Symbology = 'upc_a' | 'upc_e' | 'ean_13' | 'ean_8' | 'code_128' | 'code_39' | 'itf' | 'pdf417' | 'data_matrix' | 'qr_code';

/** The field a page fills with the next scan: a parcel's tracking id, or a product's code. */
export type CameraField = 'tracking' | 'product';

export const FIELD_SYMBOLOGIES: Readonly<Record<CameraField, readonly Symbology[]>> = {
  tracking: ['code_128', 'code_39', 'itf', 'pdf417', 'data_matrix', 'qr_code'],
  product: ['upc_a', 'upc_e', 'ean_13', 'ean_8'],
};

/** What the decoder is asked to look for when filling `field`: its symbologies, and Code 128 for the commands. */
export function symbologiesToTry(field: CameraField): readonly Symbology[] {
  const own = FIELD_SYMBOLOGIES[field];
  return own.includes('code_128') ? own : [...own, 'code_128'];
}

/** One code found in a frame, with its symbology. */
export interface CameraRead {
  text: string;
  format: Symbology;
}

/** Whether a read may fill `field`: one of its symbologies, or a command barcode (Code 128). */
export function fieldAccepts(field: CameraField, read: CameraRead): boolean {
  if (FIELD_SYMBOLOGIES[field].includes(read.format)) return true;
  return read.format === 'code_128' && scanCommandOf(read.text) !== null;
}

/** Decoded frames a code must be found in before it counts. */
export const AGREE_FRAMES = 2;
/** Frames a code not yet counted may be missing from between two finds (a noisy frame). */
export const PENDING_MISSES = 1;
/** Consecutive decoded frames without a code after which it has left the view. */
export const GONE_FRAMES = 5;
/** ...and at least this long since it was last decoded. */
export const GONE_MS = 1000;

interface Seen {
  /** When it was last decoded. */
  readonly lastSeen: number;
  /** Decoded frames without it since. */
  readonly missed: number;
  /** Frames it was found in, up to AGREE_FRAMES: it is in view (counted) once it reaches it. */
  readonly hits: number;
}

/** The codes seen: those in view (counted), and those found too few times yet to count. */
export type CameraView = ReadonlyMap<string, Seen>;

export const EMPTY_VIEW: CameraView = new Map();

/** Whether `code` is in view: it was counted and has not left. */
export const inView = (view: CameraView, code: string) => (view.get(code)?.hits ?? 0) >= AGREE_FRAMES;

/** Whether a code found has yet to be confirmed by another frame (the reader then looks again sooner). */
export const awaitsAgreement = (view: CameraView) => [...view.values()].some((seen) => seen.hits < AGREE_FRAMES);

/** Whether a code no longer found is forgotten: a pending one after PENDING_MISSES, one in view once it left. */
function forgotten(seen: Seen, now: number): boolean {
  if (seen.hits < AGREE_FRAMES) return seen.missed > PENDING_MISSES;
  return seen.missed >= GONE_FRAMES && now - seen.lastSeen >= GONE_MS;
}

/**
 * One decoded frame (the codes found in it, possibly none, at `now` ms): the view after it, and the
 * codes that have just come into view (found consistently), which are the frame's scans.
 */
export function readFrame(view: CameraView, codes: readonly string[], now: number): { view: CameraView; fresh: string[] } {
  const found = new Set(codes.map((code) => code.trim()).filter((code) => code !== ''));
  const next = new Map<string, Seen>();
  const fresh: string[] = [];
  for (const code of found) {
    const hits = Math.min(AGREE_FRAMES, (view.get(code)?.hits ?? 0) + 1);
    if (hits === AGREE_FRAMES && !inView(view, code)) fresh.push(code);
    next.set(code, { lastSeen: now, missed: 0, hits });
  }
  for (const [code, seen] of view) {
    if (found.has(code)) continue;
    const after = { ...seen, missed: seen.missed + 1 };
    if (!forgotten(after, now)) next.set(code, after);
  }
  return { view: next, fresh };
}
