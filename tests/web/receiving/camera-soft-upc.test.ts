// Issue 35's misread on generated frames: a product's UPC-A 194253397168 small (1.25-1.4 px a module),
// soft (a Gaussian blur) and a little noisy, at four sub-pixel positions, 5 frames a presentation.
// ZXing's readers, configured as the camera's product field configures them, misread it (the EAN-8
// 19426471, other EAN-8s inside it, UPC-As with two wrong digits that keep the check digit), and with
// the two-frame rule alone some misreads count. The camera's loop (decodeFrame, then readFrame) counts
// only 194253397168. Not every still frame: one misread alike in every row can count (decision 082).
import bwipjs from 'bwip-js/node';
import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from '@zxing/library';
import { describe, expect, it } from 'vitest';
import { decodeFrame, type GreyFrame } from '../../../src/web/lib/camera-decode';
import { EMPTY_VIEW, readFrame, symbologiesToTry, type CameraView } from '../../../src/web/lib/camera-reads';
import { normals } from '../../e2e/camera-clip';

const UPC = '194253397168';
const WIDTH = 240;
const HEIGHT = 48;
/** Printed ink and paper as a camera sees them (grey levels). */
const [INK, PAPER] = [50, 210];
/** A presentation: this many frames of one scene, each with its own noise. */
const FRAMES = 5;

interface Scene {
  modulePx: number;
  /** Where the symbol starts past the frame's middle, in pixels (its sub-pixel phase). */
  shift: number;
  /** The blur's standard deviation (px) and the noise's (grey levels). */
  blur: number;
  noise: number;
}

const MODULES = [1.25, 1.3, 1.4];
const BLURS = [0.5, 0.6];
const NOISES = [6, 12];
const SHIFTS = [0, 0.25, 0.5, 0.75];
const SCENES: Scene[] = MODULES.flatMap((modulePx) =>
  BLURS.flatMap((blur) => NOISES.flatMap((noise) => SHIFTS.map((shift) => ({ modulePx, blur, noise, shift })))),
);

/** UPC-A 194253397168's bars and spaces, in modules (bwip-js, the labels' library, adds the check digit). */
const WIDTHS = (bwipjs.raw({ bcid: 'upca', text: UPC.slice(0, 11) }) as { sbs: number[] }[])[0]!.sbs;

/** One row of the scene before noise: paper, the bars' ink over the pixels they cover, blurred. */
function sceneRow({ modulePx, shift, blur }: Scene): Float64Array {
  const ink = new Float64Array(WIDTH);
  let x = (WIDTH - WIDTHS.reduce((sum, w) => sum + w, 0) * modulePx) / 2 + shift;
  WIDTHS.forEach((modules, i) => {
    const end = x + modules * modulePx;
    if (i % 2 === 0) for (let px = Math.floor(x); px < Math.ceil(end); px++) ink[px]! += Math.min(px + 1, end) - Math.max(px, x);
    x = end;
  });
  const r = Math.ceil(3 * blur);
  const kernel = Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * blur * blur)));
  const norm = kernel.reduce((a, b) => a + b, 0);
  return ink.map((_, px) => {
    let covered = 0;
    for (let k = -r; k <= r; k++) covered += Math.min(1, ink[Math.max(0, Math.min(WIDTH - 1, px + k))]!) * kernel[k + r]!;
    return PAPER - ((PAPER - INK) * covered) / norm;
  });
}

/** The presentations: each scene's frames, the bars running the frame's height (a close-up of the symbol's middle). */
function presentations(): GreyFrame[][] {
  const normal = normals(35);
  return SCENES.map((scene) => {
    const row = sceneRow(scene);
    return Array.from({ length: FRAMES }, () => {
      const data = new Uint8ClampedArray(WIDTH * HEIGHT);
      for (let i = 0; i < data.length; i++) data[i] = row[i % WIDTH]! + scene.noise * normal();
      return { data, width: WIDTH, height: HEIGHT };
    });
  });
}

/** ZXing's reader as the camera configures it for the product field, on the frame, nothing else. */
const zxing = new MultiFormatReader();
zxing.setHints(
  new Map([[DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.UPC_A, BarcodeFormat.UPC_E, BarcodeFormat.EAN_13, BarcodeFormat.EAN_8, BarcodeFormat.CODE_128]]]),
);
function zxingAlone(frame: GreyFrame): { text: string; format: string }[] {
  try {
    const result = zxing.decodeWithState(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(frame.data, frame.width, frame.height))));
    return [{ text: result.getText(), format: BarcodeFormat[result.getBarcodeFormat()]! }];
  } catch {
    return [];
  }
}

/** The codes counted over each presentation, frame after frame at the camera's 200 ms. */
function counted(frames: readonly GreyFrame[], decode: (frame: GreyFrame) => readonly { text: string }[]): string[] {
  let view: CameraView = EMPTY_VIEW;
  return frames.flatMap((frame, i) => {
    const next = readFrame(
      view,
      decode(frame).map((read) => read.text),
      i * 200,
    );
    view = next.view;
    return next.fresh;
  });
}

describe('a small, soft UPC-A (issue 35)', () => {
  const all = presentations();
  const alone = new Map(all.flat().map((frame) => [frame, zxingAlone(frame)]));
  const zxing = (frame: GreyFrame) => alone.get(frame)!;
  const camera = (frame: GreyFrame) => decodeFrame(frame, symbologiesToTry('product'));

  it('ZXing alone misreads it: the EAN-8 19426471 and others inside it, UPC-As with two wrong digits; two frames agreeing count some', () => {
    const wrong = all
      .flat()
      .flatMap(zxing)
      .filter((read) => read.text !== UPC);
    expect(wrong.filter((read) => read.format === 'EAN_8').map((read) => read.text)).toContain('19426471');
    expect(wrong.filter((read) => read.format === 'UPC_A').length).toBeGreaterThan(0);
    // The two-frame rule alone: an EAN-8 found at the same place in every frame of a presentation counts.
    const countedWrong = all.flatMap((frames) => counted(frames, zxing)).filter((code) => code !== UPC);
    expect(countedWrong).toContain('19426587');
  });

  it('the camera counts nothing but 194253397168, in nearly as many presentations as ZXing alone counts it', () => {
    const codes = all.map((frames) => counted(frames, camera));
    expect(codes.flat().filter((code) => code !== UPC)).toEqual([]);
    const read = codes.filter((presentation) => presentation.includes(UPC)).length;
    const readAlone = all.filter((frames) => counted(frames, zxing).includes(UPC)).length;
    // Rows must agree, so a frame reads it a little less often; a presentation about as often.
    expect(read).toBeGreaterThanOrEqual(0.8 * readAlone);
  });
});
