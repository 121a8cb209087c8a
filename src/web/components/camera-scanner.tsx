// Scanning with the device's camera, for a clerk without a USB scanner: decoded codes go to the same
// `onScan` as the scanner input, so the page's machine sees no difference (docs/decisions/082). The
// page says which field the next scan fills; the decoder looks only for that field's symbologies,
// and lib/camera-reads decides which reads count: those of the field, seen in two frames, once per
// presentation. The decoder looks at the part of the video the clerk sees (the video is cropped to
// its box), every FRAME_INTERVAL_MS, and sooner (CONFIRM_INTERVAL_MS) while a code waits for its
// second frame. A panel in the page, not a dialog: the clerk sees the video, the code read and the
// page's banner and rows. The browser's BarcodeDetector where there is one, else ZXing
// (lib/camera-decode, imported on first use: its own chunk); tests replace the reader with
// setCameraReaderFactory.
import { useEffect, useRef, useState, type JSX } from 'react';
import { Button } from './ui/button';
import {
  EMPTY_VIEW,
  awaitsAgreement,
  fieldAccepts,
  inView,
  readFrame,
  symbologiesToTry,
  type CameraField,
  type CameraRead,
  type CameraView,
  type Symbology,
} from '../lib/camera-reads';
import { zh } from '../i18n/zh';

const t = zh.scan.camera;

/** How often the decoder looks at the video. */
export const FRAME_INTERVAL_MS = 200;
/** How soon it looks again while a code found waits for a second frame to agree. */
export const CONFIRM_INTERVAL_MS = 80;

export interface CameraReader {
  stop(): void;
}

/**
 * Called for each frame the decoder looked at, with the codes found there (none: the frame had no
 * readable code); answers whether to look again soon (a code waits for a second frame).
 */
export type FrameHandler = (reads: readonly CameraRead[]) => boolean;

/**
 * Starts reading the camera into `video`, looking in each frame for the symbologies `wanted()` gives
 * at that moment; rejects when no camera can be used.
 */
export type CameraReaderFactory = (video: HTMLVideoElement, onFrame: FrameHandler, wanted: () => readonly Symbology[]) => Promise<CameraReader>;

interface DetectedBarcode {
  rawValue: string;
  format: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
interface BarcodeDetectorClass {
  new (options?: { formats?: string[] }): BarcodeDetectorLike;
  getSupportedFormats?: () => Promise<string[]>;
}

function barcodeDetectorClass(): BarcodeDetectorClass | undefined {
  return typeof window === 'undefined' ? undefined : (window as unknown as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
}

export function cameraSupported(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';
}

const CAMERA_CONSTRAINTS: MediaStreamConstraints = { video: { facingMode: { ideal: 'environment' } }, audio: false };

/** Finds the codes in the video's current frame. */
type Look = (video: HTMLVideoElement, wanted: readonly Symbology[]) => Promise<CameraRead[]>;

/** Opens the camera into `video` and looks at a frame every FRAME_INTERVAL_MS (sooner while a code awaits agreement). */
async function lookEvery(video: HTMLVideoElement, look: Look, onFrame: FrameHandler, wanted: () => readonly Symbology[]): Promise<CameraReader> {
  const stream = await navigator.mediaDevices.getUserMedia(CAMERA_CONSTRAINTS);
  video.srcObject = stream;
  await video.play().catch(() => undefined);
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const next = async () => {
    let soon = false;
    if (video.readyState >= 2) soon = onFrame(await look(video, wanted()).catch(() => []));
    if (!stopped) timer = setTimeout(() => void next(), soon ? CONFIRM_INTERVAL_MS : FRAME_INTERVAL_MS);
  };
  timer = setTimeout(() => void next(), FRAME_INTERVAL_MS);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream.getTracks()) track.stop();
      video.srcObject = null;
    },
  };
}

/** BarcodeDetector, asked for the wanted formats it supports (one detector per set of formats). */
async function barcodeDetectorLook(Detector: BarcodeDetectorClass): Promise<Look> {
  const supported = new Set(await (Detector.getSupportedFormats?.() ?? Promise.resolve([])).catch(() => []));
  const detectors = new Map<string, BarcodeDetectorLike>();
  return async (video, wanted) => {
    const formats = supported.size > 0 ? wanted.filter((format) => supported.has(format)) : [...wanted];
    const key = formats.join(',');
    let detector = detectors.get(key);
    if (!detector) detectors.set(key, (detector = new Detector({ formats })));
    const codes = await detector.detect(video);
    return codes.map((code) => ({ text: code.rawValue, format: code.format as Symbology }));
  };
}

/**
 * The part of the frame the clerk sees: the video fills its box (object-cover), so a box of another
 * shape shows the middle of the frame only (a phone's wide, low box: the middle half of its height).
 */
export function visibleRect(video: { videoWidth: number; videoHeight: number; clientWidth: number; clientHeight: number }) {
  const { videoWidth: vw, videoHeight: vh, clientWidth: cw, clientHeight: ch } = video;
  if (cw <= 0 || ch <= 0) return { x: 0, y: 0, width: vw, height: vh };
  const scale = Math.max(cw / vw, ch / vh);
  const width = Math.min(vw, Math.round(cw / scale));
  const height = Math.min(vh, Math.round(ch / scale));
  return { x: Math.floor((vw - width) / 2), y: Math.floor((vh - height) / 2), width, height };
}

/** ZXing (lib/camera-decode) on the visible part of the frame, drawn on a canvas. */
async function zxingLook(): Promise<Look> {
  const { decodeFrame, greyOf } = await import('../lib/camera-decode');
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return async (video, wanted) => {
    const rect = visibleRect(video);
    if (!context || rect.width === 0 || rect.height === 0) return [];
    if (canvas.width !== rect.width) canvas.width = rect.width;
    if (canvas.height !== rect.height) canvas.height = rect.height;
    context.drawImage(video, rect.x, rect.y, rect.width, rect.height, 0, 0, rect.width, rect.height);
    const pixels = context.getImageData(0, 0, rect.width, rect.height);
    return decodeFrame(greyOf(pixels.data, rect.width, rect.height), wanted);
  };
}

/** BarcodeDetector when the browser has it, else ZXing. */
export const browserCameraReader: CameraReaderFactory = async (video, onFrame, wanted) => {
  const Detector = barcodeDetectorClass();
  return lookEvery(video, Detector ? await barcodeDetectorLook(Detector) : await zxingLook(), onFrame, wanted);
};

let readerFactory: CameraReaderFactory = browserCameraReader;
let supported: () => boolean = cameraSupported;

/** Replaces the camera (tests); null restores the browser's. */
export function setCameraReaderFactory(factory: CameraReaderFactory | null, isSupported?: () => boolean): void {
  readerFactory = factory ?? browserCameraReader;
  supported = factory ? (isSupported ?? (() => true)) : cameraSupported;
}

/** Opens and closes the camera panel. */
export function CameraButton({ open, onToggle, disabled }: { open: boolean; onToggle: () => void; disabled?: boolean }): JSX.Element {
  return (
    <Button variant="secondary" disabled={disabled} aria-expanded={open} onClick={onToggle}>
      {open ? t.close : t.open}
    </Button>
  );
}

type CameraState = 'starting' | 'running' | 'unsupported' | 'denied';

/** The last code that came into view, and whether it is still there. */
interface LastRead {
  code: string;
  at: number;
  held: boolean;
}

const time = (at: number) => new Date(at).toLocaleTimeString('zh-CN', { hour12: false });

/** Beside the video: whether the camera runs (or why not), the last code read and whether it is still in view. */
function CameraStatus({ state, last }: { state: CameraState; last: LastRead | null }): JSX.Element {
  return (
    <div className="flex min-w-0 flex-col gap-1 text-sm">
      {state === 'unsupported' ? (
        <p role="alert" className="text-red-600">
          {t.unsupported}
        </p>
      ) : state === 'denied' ? (
        <p role="alert" className="text-red-600">
          {t.denied}
        </p>
      ) : (
        <p className="text-slate-500">{state === 'starting' ? t.starting : t.hint}</p>
      )}
      {last && (
        <>
          <p className="text-slate-800">
            {t.lastRead} <span className="font-mono font-semibold break-all">{last.code}</span>
            <span className="ml-2 text-xs text-slate-500">{time(last.at)}</span>
          </p>
          {last.held && <p className="text-xs text-amber-700">{t.held}</p>}
        </>
      )}
      <p className="text-xs text-slate-500">{t.resultBelow}</p>
    </div>
  );
}

/**
 * The open camera: the video, and what it read; each code of `field` coming into view is passed to
 * onScan. The field may change while the camera runs (a tracking id read: the products follow).
 */
export function CameraPanel({ onScan, field }: { onScan: (code: string) => void; field: CameraField }): JSX.Element {
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const [state, setState] = useState<CameraState>(() => (supported() ? 'starting' : 'unsupported'));
  const [last, setLast] = useState<LastRead | null>(null);
  const [frames, setFrames] = useState(0);
  const [reads, setReads] = useState(0);
  const onScanRef = useRef(onScan);
  const fieldRef = useRef(field);
  useEffect(() => {
    onScanRef.current = onScan;
    fieldRef.current = field;
  });

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !supported()) return;
    let live = true;
    let reader: CameraReader | null = null;
    let view: CameraView = EMPTY_VIEW;
    const onFrame: FrameHandler = (reads) => {
      if (!live) return false;
      const now = Date.now();
      const codes = reads.filter((read) => fieldAccepts(fieldRef.current, read)).map((read) => read.text);
      const read = readFrame(view, codes, now);
      view = read.view;
      for (const code of read.fresh) onScanRef.current(code);
      const newest = read.fresh.at(-1);
      setFrames((n) => n + 1);
      if (read.fresh.length > 0) setReads((n) => n + read.fresh.length);
      setLast((before) => {
        if (newest !== undefined) return { code: newest, at: now, held: false };
        if (!before) return before;
        const held = inView(view, before.code);
        return held === before.held ? before : { ...before, held };
      });
      return awaitsAgreement(view);
    };
    readerFactory(video, onFrame, () => symbologiesToTry(fieldRef.current)).then(
      (started) => {
        if (!live) started.stop();
        else {
          reader = started;
          setState('running');
        }
      },
      () => live && setState('denied'),
    );
    return () => {
      live = false;
      reader?.stop();
    };
  }, []);

  return (
    <section
      aria-label={t.title}
      data-frames={frames}
      data-reads={reads}
      data-field={field}
      className="flex w-full flex-col gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3 sm:flex-row sm:items-start sm:gap-4"
    >
      <video
        ref={videoRef}
        aria-label={t.video}
        muted
        playsInline
        className={`h-36 w-full rounded-md bg-slate-900 object-cover sm:h-48 sm:w-72 ${state === 'running' || state === 'starting' ? '' : 'hidden'}`}
      />
      <CameraStatus state={state} last={last} />
    </section>
  );
}
