// ZXing on one camera frame, for browsers without BarcodeDetector (docs/decisions/082). Imported on
// first use (its own chunk, with ZXing). What a plain MultiFormatReader does not do:
// - It is told the symbologies of the field being filled (lib/camera-reads FIELD_SYMBOLOGIES).
// - Linear codes not found in the frame are looked for again in the frame averaged over ROW_AVERAGE
//   rows: one row of a small label under sensor noise has pixels flipped between bar and space (a
//   noisy Code 128 was missed in 3 of 7 presentations); a bar runs up and down, the noise does not.
// - A UPC/EAN is read on many rows of the frame, which must agree (decodeRows): its one check digit
//   lets a soft UPC-A through with two digits misread. 2D codes are decoded on the frame as it is.
import {
  BarcodeFormat,
  BinaryBitmap,
  BitArray,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatOneDReader,
  MultiFormatReader,
  RGBLuminanceSource,
} from '@zxing/library';
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

/** The code ZXing finds in `frame` among `symbologies`, or null (nothing, a failed checksum, rows that disagree). */
function decodeWith(frame: GreyFrame, symbologies: readonly Symbology[]): CameraRead | null {
  if (symbologies.length === 0) return null;
  if (symbologies.some((s) => UPC_EAN.has(s))) return decodeRows(frame, symbologies);
  try {
    const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(frame.data, frame.width, frame.height)));
    const result = readerFor(symbologies).decodeWithState(bitmap);
    const format = SYMBOLOGY_OF.get(result.getBarcodeFormat());
    return format ? { text: result.getText(), format } : null;
  } catch {
    // NotFound, Checksum or Format: no code in this frame.
    return null;
  }
}

/** UPC/EAN: their one check digit is satisfied by some pairs of misread digits (a soft edge reads 2 as 8). */
const UPC_EAN: ReadonlySet<Symbology> = new Set(['upc_a', 'upc_e', 'ean_13', 'ean_8']);
/** Rows of one frame that must read a UPC/EAN alike (and no row another UPC/EAN) for the frame to have it. */
export const AGREE_ROWS = 2;
/** Rows looked at, 1/64 of the frame's height apart from its middle out: ZXing's middle half, twice as dense. */
const ROW_LINES = 30;

/** One row's read, where it was found. */
interface RowRead extends CameraRead {
  y: number;
}

/**
 * UPC/EAN in a frame, read row by row: ZXing's own scan (rows from the middle out, each both ways)
 * stops at the first row that decodes. Here every row is read (ROW_LINES of them, twice ZXing's 15
 * over the same middle half), and a UPC/EAN counts only when AGREE_ROWS rows read it and no row reads
 * another. Generated soft UPC-A frames (1.3-1.4 px a module) had rows reading 194853397162 or
 * 104243391168 (two misread digits whose errors cancel in the check digit) beside rows reading it
 * right, and ZXing's first row gave the same misread in two frames running: counted. A misread every
 * row makes alike (a still frame at one sub-pixel phase) is not caught (decision 082). A short
 * symbol (EAN-8, UPC-E) must also have its quiet zone (quietBeside). Other codes (the command
 * barcodes, Code 128): the first row that reads one, as ZXing.
 */
function decodeRows(frame: GreyFrame, symbologies: readonly Symbology[]): CameraRead | null {
  const { width, height } = frame;
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(frame.data, width, height)));
  const reader = rowReaderFor(symbologies);
  const step = Math.max(1, height >> 6);
  const middle = Math.trunc(height / 2);
  const reads: RowRead[] = [];
  let row = new BitArray(width);
  for (let line = 0; line < ROW_LINES; line++) {
    const away = Math.trunc((line + 1) / 2);
    const y = middle + step * (line % 2 === 0 ? away : -away);
    if (y < 0 || y >= height) break;
    try {
      row = bitmap.getBlackRow(y, row);
    } catch {
      continue;
    }
    for (const reversed of [false, true]) {
      if (reversed) row.reverse();
      const read = readRow(frame, reader, row, y, reversed);
      if (read && !UPC_EAN.has(read.format)) return { text: read.text, format: read.format };
      if (read) reads.push(read);
    }
  }
  const texts = new Set(reads.map((read) => read.text));
  if (texts.size !== 1) return null;
  const rows = new Set(reads.map((read) => read.y));
  return rows.size >= AGREE_ROWS ? { text: reads[0]!.text, format: reads[0]!.format } : null;
}

interface RowReader {
  reader: MultiFormatOneDReader;
  hints: Map<DecodeHintType, unknown>;
}
const rowReaders = new Map<string, RowReader>();

/** ZXing's reader of one row for exactly `symbologies` (kept, like readerFor). */
function rowReaderFor(symbologies: readonly Symbology[]): RowReader {
  const key = [...symbologies].sort().join(',');
  let found = rowReaders.get(key);
  if (!found) {
    const hints = new Map<DecodeHintType, unknown>([[DecodeHintType.POSSIBLE_FORMATS, symbologies.map((s) => ZXING[s])]]);
    found = { reader: new MultiFormatOneDReader(hints), hints };
    rowReaders.set(key, found);
  }
  return found;
}

/** What ZXing reads in one row (read right to left when `reversed`), or null; a short symbol without its quiet zone is null. */
function readRow(frame: GreyFrame, { reader, hints }: RowReader, row: BitArray, y: number, reversed: boolean): RowRead | null {
  try {
    const result = reader.decodeRow(y, row, hints);
    const format = SYMBOLOGY_OF.get(result.getBarcodeFormat());
    if (!format) return null;
    const span = SHORT_SPAN[format];
    if (span) {
      const [start, end] = result.getResultPoints();
      if (!start || !end) return null;
      // A reversed row's points count from its right end (taken as they were, the end guard was left
      // of the start guard and the quiet zones checked no pixel).
      const [a, b] = reversed ? [frame.width - 1 - end.getX(), frame.width - 1 - start.getX()] : [start.getX(), end.getX()];
      if (!quietBeside(frame, y, a, b, span)) return null;
    }
    return { text: result.getText(), format, y };
  } catch {
    // NotFound, Checksum or Format: nothing in this row.
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
