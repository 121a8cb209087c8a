// A video clip for Chromium's fake camera (--use-file-for-fake-video-capture): a barcode drawn by
// bwip-js (the labels' library) on white, written as YUV4MPEG2 (4:2:0), the raw format Chromium reads
// and loops. Scenes let a clip show a code, then nothing (the product taken away). A scene may make
// its code a real camera's: small (a module under 2 px), soft (a Gaussian blur) and noisy (sensor
// noise, new in every frame, from a seeded generator so a clip is the same each run).
import fs from 'node:fs';
import bwipjs from 'bwip-js/node';

export interface Scene {
  /** The code shown, or null for an empty view. */
  code: string | null;
  seconds: number;
  /** Its symbology: a Code 128 label (the default) or a product's UPC-A (12 digits) or EAN-8. */
  symbology?: 'code128' | 'upca' | 'ean8';
  /** Pixels per module (may be fractional; MODULE_PX by default) and the bars' height. */
  modulePx?: number;
  barHeight?: number;
  /** The blur's standard deviation in pixels (a soft image), and the noise's in grey levels. */
  blur?: number;
  noise?: number;
}

const WIDTH = 640;
const HEIGHT = 480;
const FPS = 10;
/** Pixels per barcode module, and the bars' height. */
const MODULE_PX = 3;
const BAR_HEIGHT = 160;

/** The scene's grey frame (one value a pixel, 0-255) before noise: white, with the code's bars centred, blurred. */
function frameGrey(scene: Scene): Float32Array {
  const grey = new Float32Array(WIDTH * HEIGHT).fill(255);
  if (scene.code === null) return grey;
  const modulePx = scene.modulePx ?? MODULE_PX;
  const barHeight = scene.barHeight ?? BAR_HEIGHT;
  // bwip-js takes UPC-A's 11 digits (EAN-8's 7) and adds the check digit itself.
  const text = scene.symbology === 'upca' ? scene.code.slice(0, 11) : scene.symbology === 'ean8' ? scene.code.slice(0, 7) : scene.code;
  const [symbol] = bwipjs.raw({ bcid: scene.symbology ?? 'code128', text }) as { sbs: number[] }[];
  const widths = symbol!.sbs;
  const total = widths.reduce((sum, w) => sum + w, 0) * modulePx;
  if (total > WIDTH - 20 * modulePx) throw new Error(`code ${scene.code} is too long for the clip`);
  // How much of each pixel column the bars cover (fractional modules cover pixels partly).
  const ink = new Float32Array(WIDTH);
  let x = (WIDTH - total) / 2;
  widths.forEach((modules, i) => {
    const end = x + modules * modulePx;
    if (i % 2 === 0) for (let px = Math.floor(x); px < Math.ceil(end); px++) ink[px]! += Math.min(px + 1, end) - Math.max(px, x); // bars at even places
    x = end;
  });
  const top = Math.floor((HEIGHT - barHeight) / 2);
  for (let y = top; y < top + barHeight; y++) for (let px = 0; px < WIDTH; px++) grey[y * WIDTH + px] = 255 * (1 - Math.min(1, ink[px]!));
  return scene.blur ? blurred(grey, scene.blur) : grey;
}

/** A Gaussian blur of standard deviation `sigma` px, along the rows then the columns. */
function blurred(grey: Float32Array, sigma: number): Float32Array {
  const r = Math.ceil(sigma * 3);
  const kernel = Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * sigma * sigma)));
  const norm = kernel.reduce((a, b) => a + b, 0);
  const pass = (src: Float32Array, step: number, size: number, along: (i: number) => number) => {
    const out = new Float32Array(src.length);
    for (let i = 0; i < src.length; i++) {
      let acc = 0;
      for (let k = -r; k <= r; k++) acc += src[i + step * Math.max(-along(i), Math.min(size - 1 - along(i), k))]! * kernel[k + r]!;
      out[i] = acc / norm;
    }
    return out;
  };
  return pass(
    pass(grey, 1, WIDTH, (i) => i % WIDTH),
    WIDTH,
    HEIGHT,
    (i) => Math.floor(i / WIDTH),
  );
}

/** A seeded generator of normal deviates (mulberry32, Box-Muller): the same frames every run. */
export function normals(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** The frame as RGB (3 bytes a pixel), grey, with the scene's noise added. */
function frameRgb(grey: Float32Array, noise: number, normal: () => number): Uint8Array {
  const rgb = new Uint8Array(WIDTH * HEIGHT * 3);
  for (let i = 0; i < grey.length; i++) rgb.fill(Math.max(0, Math.min(255, Math.round(grey[i]! + (noise ? noise * normal() : 0)))), i * 3, i * 3 + 3);
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
    const normal = normals(35);
    for (const scene of scenes) {
      const grey = frameGrey(scene);
      let frame = frameYuv420(frameRgb(grey, 0, normal));
      for (let i = 0; i < Math.max(1, Math.round(scene.seconds * FPS)); i++) {
        if (scene.noise) frame = frameYuv420(frameRgb(grey, scene.noise, normal));
        fs.writeSync(out, 'FRAME\n');
        fs.writeSync(out, frame);
      }
    }
  } finally {
    fs.closeSync(out);
  }
}
