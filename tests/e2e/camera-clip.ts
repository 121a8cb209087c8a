// A video clip for Chromium's fake camera (--use-file-for-fake-video-capture): a Code 128 barcode
// drawn by bwip-js (the labels' library) on white, written as YUV4MPEG2 (4:2:0), the raw format
// Chromium reads and loops. Scenes let a clip show a code, then nothing (the product taken away).
import fs from 'node:fs';
import bwipjs from 'bwip-js/node';

export interface Scene {
  /** The code shown, or null for an empty view. */
  code: string | null;
  seconds: number;
}

const WIDTH = 640;
const HEIGHT = 480;
const FPS = 10;
/** Pixels per barcode module, and the bars' height. */
const MODULE_PX = 3;
const BAR_HEIGHT = 160;

/** The frame as RGB (3 bytes a pixel): white, with the code's bars centred. */
function frameRgb(code: string | null): Uint8Array {
  const rgb = new Uint8Array(WIDTH * HEIGHT * 3).fill(255);
  if (code === null) return rgb;
  const [symbol] = bwipjs.raw({ bcid: 'code128', text: code }) as { sbs: number[] }[];
  const widths = symbol!.sbs;
  const total = widths.reduce((sum, w) => sum + w, 0) * MODULE_PX;
  if (total > WIDTH - 20 * MODULE_PX) throw new Error(`code ${code} is too long for the clip`);
  const top = Math.floor((HEIGHT - BAR_HEIGHT) / 2);
  let x = Math.floor((WIDTH - total) / 2);
  widths.forEach((modules, i) => {
    const px = modules * MODULE_PX;
    if (i % 2 === 0) for (let y = top; y < top + BAR_HEIGHT; y++) rgb.fill(0, (y * WIDTH + x) * 3, (y * WIDTH + x + px) * 3); // bars at even places
    x += px;
  });
  return rgb;
}

/** BT.601 studio range. */
function yuvOf(r: number, g: number, b: number): [number, number, number] {
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  return [
    clamp(16 + (65.738 * r + 129.057 * g + 25.064 * b) / 256),
    clamp(128 + (-37.945 * r - 74.494 * g + 112.439 * b) / 256),
    clamp(128 + (112.439 * r - 94.154 * g - 18.285 * b) / 256),
  ];
}

/** One 4:2:0 frame: the Y plane, then U and V, each averaged over 2x2 pixels. */
function frameYuv420(rgb: Uint8Array): Buffer {
  const frame = Buffer.alloc(WIDTH * HEIGHT * 1.5);
  const quarter = (WIDTH / 2) * (HEIGHT / 2);
  for (let y = 0; y < HEIGHT; y++)
    for (let x = 0; x < WIDTH; x++) {
      const p = (y * WIDTH + x) * 3;
      const [lum, u, v] = yuvOf(rgb[p]!, rgb[p + 1]!, rgb[p + 2]!);
      frame[y * WIDTH + x] = lum;
      const c = (y >> 1) * (WIDTH / 2) + (x >> 1);
      // Each chroma sample is the mean of its four pixels.
      frame[WIDTH * HEIGHT + c] = (frame[WIDTH * HEIGHT + c]! + u / 4) | 0;
      frame[WIDTH * HEIGHT + quarter + c] = (frame[WIDTH * HEIGHT + quarter + c]! + v / 4) | 0;
    }
  return frame;
}

/** Writes the scenes, in order, as a y4m file at `file` (Chromium loops it). */
export function writeBarcodeClip(file: string, scenes: readonly Scene[]): void {
  const out = fs.openSync(file, 'w');
  try {
    fs.writeSync(out, `YUV4MPEG2 W${WIDTH} H${HEIGHT} F${FPS}:1 Ip A1:1 C420jpeg\n`);
    for (const scene of scenes) {
      const frame = frameYuv420(frameRgb(scene.code));
      for (let i = 0; i < Math.max(1, Math.round(scene.seconds * FPS)); i++) {
        fs.writeSync(out, 'FRAME\n');
        fs.writeSync(out, frame);
      }
    }
  } finally {
    fs.closeSync(out);
  }
}
