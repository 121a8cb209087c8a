// The camera's decoder (src/web/lib/camera-decode.ts, docs/decisions/082) on frames of generated
// clips (tests/e2e/camera-clip.ts: the frames Chromium's fake camera plays, luminance plane): a small
// Code 128 label under sensor noise, which ZXing alone misses, is read in every frame; each field
// finds only its own symbologies.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BinaryBitmap, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from '@zxing/library';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBarcodeClip, type Scene } from '../../e2e/camera-clip';
import { QUIET_MODULES, decodeFrame, quietBeside, type GreyFrame } from '../../../src/web/lib/camera-decode';
import { symbologiesToTry } from '../../../src/web/lib/camera-reads';

const WIDTH = 640;
const HEIGHT = 480;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-decode-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The luminance planes of a clip of `scene` (ten frames, each with its own noise). */
function framesOf(scene: Scene): GreyFrame[] {
  const file = path.join(dir, 'clip.y4m');
  writeBarcodeClip(file, [{ ...scene, seconds: 1 }]);
  const bytes = fs.readFileSync(file);
  const frames: GreyFrame[] = [];
  for (let at = bytes.indexOf(10) + 1; at < bytes.length; at += 'FRAME\n'.length + WIDTH * HEIGHT * 1.5)
    frames.push({ data: new Uint8ClampedArray(bytes.subarray(at + 6, at + 6 + WIDTH * HEIGHT)), width: WIDTH, height: HEIGHT });
  return frames;
}

/** What ZXing finds with no help: every symbology, the frame as it is. */
function plainZxing(frame: GreyFrame): string | null {
  try {
    return new MultiFormatReader().decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(frame.data, frame.width, frame.height)))).getText();
  } catch {
    return null;
  }
}

const LABEL = '1Z999AA10123456784';
const NOISY_LABEL: Scene = { code: LABEL, seconds: 1, modulePx: 1.6, barHeight: 80, blur: 0.6, noise: 25 };
const UPC: Scene = { code: '194253397168', symbology: 'upca', seconds: 1, modulePx: 2, barHeight: 70, blur: 0.8, noise: 10 };

describe('decodeFrame', () => {
  it('reads a small Code 128 label under sensor noise in every frame, where ZXing alone misses most', () => {
    const frames = framesOf(NOISY_LABEL);
    const reads = frames.map((frame) => decodeFrame(frame, symbologiesToTry('tracking')));
    expect(reads.every((read) => read.length === 1 && read[0]!.text === LABEL && read[0]!.format === 'code_128')).toBe(true);
    expect(frames.filter((frame) => plainZxing(frame) === LABEL).length).toBeLessThan(frames.length / 2);
  });

  it('finds only the field symbologies: a UPC is nothing where a tracking id is expected, a label nothing where a product is', () => {
    const upc = framesOf(UPC);
    expect(upc.map((frame) => decodeFrame(frame, symbologiesToTry('product'))[0]?.text)).toContain('194253397168');
    expect(upc.flatMap((frame) => decodeFrame(frame, symbologiesToTry('tracking')))).toEqual([]);
    // Code 128 is tried in the product field (for the command barcodes; the panel drops any other
    // text): the noisy label is found as what it is, never as a UPC/EAN.
    const formats = framesOf(NOISY_LABEL).flatMap((frame) => decodeFrame(frame, symbologiesToTry('product')).map((read) => read.format));
    expect(formats.length).toBeGreaterThan(0);
    expect(formats.every((format) => format === 'code_128')).toBe(true);
  });

  it('takes an EAN-8 with its quiet zone, and not a short symbol with a bar right beyond its guard (one found inside a UPC-A)', () => {
    const ean8 = framesOf({ code: '96385074', symbology: 'ean8', seconds: 1, modulePx: 2, barHeight: 70, blur: 0.6, noise: 6 });
    expect(ean8.map((frame) => decodeFrame(frame, symbologiesToTry('product'))[0]?.text)).toContain('96385074');
    // One row, 2 px a module: an EAN-8's guards' centres 64 modules apart, light around them...
    const row = (barAt: number | null): GreyFrame => {
      const data = new Uint8ClampedArray(400).fill(230);
      for (let x = 100; x < 100 + 67 * 2; x += 4) data.fill(20, x, x + 2);
      if (barAt !== null) data.fill(20, barAt, barAt + 2);
      return { data, width: 400, height: 1 };
    };
    const [left, right] = [100 + 1.5 * 2, 100 + 65.5 * 2];
    expect(quietBeside(row(null), 0, left, right, 64)).toBe(true);
    // ...and with a bar 4 modules beyond the end guard (the widest space inside a UPC/EAN), or before the start guard.
    expect(quietBeside(row(100 + 67 * 2 + 4 * 2), 0, left, right, 64)).toBe(false);
    expect(quietBeside(row(100 - (QUIET_MODULES - 1) * 2), 0, left, right, 64)).toBe(false);
  });
});
