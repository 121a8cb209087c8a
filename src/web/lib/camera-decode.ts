// ZXing on one camera frame, for browsers without BarcodeDetector (docs/decisions/082). Imported on
// first use (its own chunk, with ZXing). Two things a plain MultiFormatReader does not do:
// - It is told the symbologies of the field being filled (lib/camera-reads FIELD_SYMBOLOGIES), so it
//   tries only those: faster, and a product's UPC is never found where a tracking label is expected.
// - Linear codes (UPC/EAN, Code 128, Code 39, ITF) not found in the frame are looked for again in
//   the frame averaged over ROW_AVERAGE rows. ZXing reads them a row at a time, and one row of a
//   small label under sensor noise has pixels flipped between bar and space: a noisy Code 128 was
//   missed in 3 of 7 presentations. A bar runs up and down, so averaging neighbouring rows keeps the
//   bars and drops the noise. 2D codes (PDF417, Data Matrix, QR) are decoded on the frame as it is.
import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from '@zxing/library';
import type { CameraRead, Symbology } from './camera-reads';

/** Rows averaged (the row and this many above and below it) before the linear codes are decoded. */
export const ROW_AVERAGE = 2;

const ZXING: Readonly<Record<Symbology, BarcodeFormat>> = {
  upc_a: BarcodeFormat.UPC_A,
  upc_e: BarcodeFormat.UPC_E,
  ean_13: BarcodeFormat.EAN_13,
  ean_8: BarcodeFormat.EAN_8,
  code_128: BarcodeFormat.CODE_128,
  code_39: BarcodeFormat.CODE_39,
  itf: BarcodeFormat.ITF,
  pdf417: BarcodeFormat.PDF_417,
  data_matrix: BarcodeFormat.DATA_MATRIX,
  qr_code: BarcodeFormat.QR_CODE,
};
const SYMBOLOGY_OF = new Map<BarcodeFormat, Symbology>(Object.entries(ZXING).map(([name, format]) => [format, name as Symbology]));
const TWO_D: ReadonlySet<Symbology> = new Set(['pdf417', 'data_matrix', 'qr_code']);

/** A grey frame: one byte of luminance a pixel, row after row. */
export interface GreyFrame {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** The luminance of canvas pixels (RGBA), as ZXing computes it. */
export function greyOf(rgba: Uint8ClampedArray, width: number, height: number): GreyFrame {
  const data = new Uint8ClampedArray(width * height);
  for (let i = 0, p = 0; i < data.length; i++, p += 4) data[i] = (306 * rgba[p]! + 601 * rgba[p + 1]! + 117 * rgba[p + 2]! + 0x200) >> 10;
  return { data, width, height };
}

/** Each pixel the mean of its column's 2k+1 pixels around it (fewer at the top and bottom edge): a running sum per column. */
export function averageRows(frame: GreyFrame, k: number): GreyFrame {
  const { data, width, height } = frame;
  const out = new Uint8ClampedArray(data.length);
  const sum = new Float64Array(width);
  for (let y = 0; y < Math.min(k, height); y++) for (let x = 0; x < width; x++) sum[x]! += data[y * width + x]!;
  for (let y = 0; y < height; y++) {
    const add = y + k;
    const drop = y - k - 1;
    if (add < height) for (let x = 0; x < width; x++) sum[x]! += data[add * width + x]!;
    if (drop >= 0) for (let x = 0; x < width; x++) sum[x]! -= data[drop * width + x]!;
    const n = Math.min(height - 1, y + k) - Math.max(0, y - k) + 1;
    for (let x = 0; x < width; x++) out[y * width + x] = sum[x]! / n;
  }
  return { data: out, width, height };
}

const readers = new Map<string, MultiFormatReader>();

/** A reader looking for exactly `symbologies` (kept: hints are set once per set). */
function readerFor(symbologies: readonly Symbology[]): MultiFormatReader {
  const key = [...symbologies].sort().join(',');
  let reader = readers.get(key);
  if (!reader) {
    reader = new MultiFormatReader();
    reader.setHints(new Map([[DecodeHintType.POSSIBLE_FORMATS, symbologies.map((s) => ZXING[s])]]));
    readers.set(key, reader);
  }
  return reader;
}

/**
 * The short UPC/EAN symbols, with the modules between their guards' centres as ZXing reports them
 * (EAN-8: 67 modules, guards' centres 1.5 and 65.5; UPC-E: 51, 1.5 and 48). Either can be found
 * inside a longer symbol: a soft UPC-A read as the EAN-8 19426471 was its start guard and four
 * digits, a middle guard further on, and an "end guard" inside its eleventh digit.
 */
const SHORT_SPAN: Partial<Record<Symbology, number>> = { ean_8: 64, upc_e: 46.5 };
/** Modules of quiet zone a short symbol must have beside each guard (GS1 asks 7; ZXing checks 3). */
export const QUIET_MODULES = 5;

/**
 * Whether the row `y` is light for QUIET_MODULES modules beyond each end of the symbol found between
 * x `left` and `right` (guards' centres, `span` modules apart). No UPC/EAN has a space wider than 4
 * modules, so a short symbol found inside a longer one has a bar there.
 */
export function quietBeside(frame: GreyFrame, y: number, left: number, right: number, span: number): boolean {
  const module = (right - left) / span;
  const row = frame.data.subarray(y * frame.width, (y + 1) * frame.width);
  let dark = 255;
  let light = 0;
  for (let x = Math.round(left); x <= Math.round(right); x++) {
    dark = Math.min(dark, row[x]!);
    light = Math.max(light, row[x]!);
  }
  const threshold = (dark + light) / 2;
  // From half a module off each guard's outer edge (a soft edge spills into its neighbour pixel).
  const zones = [
    [left - (1.5 + QUIET_MODULES) * module, left - 2 * module],
    [right + 2 * module, right + (1.5 + QUIET_MODULES) * module],
  ];
  return zones.every(([from, to]) => {
    if (from! < 0 || to! > frame.width - 1) return false;
    for (let x = Math.ceil(from!); x <= Math.floor(to!); x++) if (row[x]! < threshold) return false;
    return true;
  });
}

/** The code ZXing finds in `frame` among `symbologies`, or null (nothing, a failed checksum, a short symbol without its quiet zone). */
function decodeWith(frame: GreyFrame, symbologies: readonly Symbology[]): CameraRead | null {
  if (symbologies.length === 0) return null;
  try {
    const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(frame.data, frame.width, frame.height)));
    const result = readerFor(symbologies).decodeWithState(bitmap);
    const format = SYMBOLOGY_OF.get(result.getBarcodeFormat());
    const span = format && SHORT_SPAN[format];
    if (span) {
      const [start, end] = result.getResultPoints();
      if (!start || !end || !quietBeside(frame, Math.round(start.getY()), start.getX(), end.getX(), span)) return null;
    }
    return format ? { text: result.getText(), format } : null;
  } catch {
    // NotFound, Checksum or Format: no code in this frame.
    return null;
  }
}

/**
 * The codes of `symbologies` in one frame: a linear code on the frame itself, else on the
 * row-averaged frame, else a 2D code on the frame itself. Both linear passes: the averaged frame
 * reads a noisy label the frame itself misses, and the frame itself a soft, nearly clean UPC the
 * averaged frame misses more often (noise spreads a soft bar's edge over both sides of the threshold
 * from row to row, and some row reads; averaged, every row is on the same wrong side).
 */
export function decodeFrame(frame: GreyFrame, symbologies: readonly Symbology[]): CameraRead[] {
  const linear = symbologies.filter((s) => !TWO_D.has(s));
  const read =
    decodeWith(frame, linear) ??
    decodeWith(averageRows(frame, ROW_AVERAGE), linear) ??
    decodeWith(
      frame,
      symbologies.filter((s) => TWO_D.has(s)),
    );
  return read ? [read] : [];
}
