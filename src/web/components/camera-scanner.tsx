// Scanning with the device's camera, for a clerk without a USB scanner: decoded codes go to the same
// `onScan` as the scanner input, so the page's machine sees no difference. One read per presentation
// (docs/decisions/082): lib/camera-reads decides which codes have just come into view, so a product
// held in view is one scan. A panel in the page, not a dialog: the clerk sees the video, the code
// read and the page's banner and rows. The browser's BarcodeDetector where there is one, else ZXing,
// imported on first use (its own chunk); tests replace the reader with setCameraReaderFactory.
import { useEffect, useRef, useState, type JSX } from 'react';
import { Button } from './ui/button';
import { EMPTY_VIEW, readFrame, type CameraView } from '../lib/camera-reads';
import { zh } from '../i18n/zh';

const t = zh.scan.camera;

/** How often the decoder looks at the video. */
export const FRAME_INTERVAL_MS = 200;

export interface CameraReader {
  stop(): void;
}

/**
 * Starts reading the camera into `video`, calling `onFrame` for each frame the decoder looked at
 * with the codes it found there (none: the frame had no readable code); rejects when no camera can
 * be used.
 */
export type CameraReaderFactory = (video: HTMLVideoElement, onFrame: (codes: readonly string[]) => void) => Promise<CameraReader>;

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
type BarcodeDetectorClass = new (options?: { formats?: string[] }) => BarcodeDetectorLike;

function barcodeDetectorClass(): BarcodeDetectorClass | undefined {
  return typeof window === 'undefined' ? undefined : (window as unknown as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
}

export function cameraSupported(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';
}

const CAMERA_CONSTRAINTS: MediaStreamConstraints = { video: { facingMode: { ideal: 'environment' } }, audio: false };

async function barcodeDetectorReader(
  Detector: BarcodeDetectorClass,
  video: HTMLVideoElement,
  onFrame: (codes: readonly string[]) => void,
): Promise<CameraReader> {
  const stream = await navigator.mediaDevices.getUserMedia(CAMERA_CONSTRAINTS);
  video.srcObject = stream;
  await video.play().catch(() => undefined);
  const detector = new Detector();
  let busy = false;
  const timer = setInterval(() => {
    if (busy || video.readyState < 2) return;
    busy = true;
    detector
      .detect(video)
      .then((codes) => onFrame(codes.map((code) => code.rawValue)))
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, FRAME_INTERVAL_MS);
  return {
    stop() {
      clearInterval(timer);
      for (const track of stream.getTracks()) track.stop();
      video.srcObject = null;
    },
  };
}

async function zxingReader(video: HTMLVideoElement, onFrame: (codes: readonly string[]) => void): Promise<CameraReader> {
  const { BrowserMultiFormatReader } = await import('@zxing/browser');
  const reader = new BrowserMultiFormatReader(undefined, { delayBetweenScanAttempts: FRAME_INTERVAL_MS, delayBetweenScanSuccess: FRAME_INTERVAL_MS });
  // Called once per frame looked at: a result, or an error (mostly "nothing found here").
  const controls = await reader.decodeFromConstraints(CAMERA_CONSTRAINTS, video, (result) => onFrame(result ? [result.getText()] : []));
  return { stop: () => controls.stop() };
}

/** BarcodeDetector when the browser has it, else ZXing. */
export const browserCameraReader: CameraReaderFactory = (video, onFrame) => {
  const Detector = barcodeDetectorClass();
  return Detector ? barcodeDetectorReader(Detector, video, onFrame) : zxingReader(video, onFrame);
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

/** The open camera: the video, and what it read; each code coming into view is passed to onScan. */
export function CameraPanel({ onScan }: { onScan: (code: string) => void }): JSX.Element {
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const [state, setState] = useState<CameraState>(() => (supported() ? 'starting' : 'unsupported'));
  const [last, setLast] = useState<LastRead | null>(null);
  const [frames, setFrames] = useState(0);
  const onScanRef = useRef(onScan);
  useEffect(() => {
    onScanRef.current = onScan;
  });

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !supported()) return;
    let live = true;
    let reader: CameraReader | null = null;
    let view: CameraView = EMPTY_VIEW;
    const onFrame = (codes: readonly string[]) => {
      if (!live) return;
      const now = Date.now();
      const read = readFrame(view, codes, now);
      view = read.view;
      for (const code of read.fresh) onScanRef.current(code);
      const newest = read.fresh.at(-1);
      setFrames((n) => n + 1);
      setLast((before) => {
        if (newest !== undefined) return { code: newest, at: now, held: false };
        if (!before) return before;
        const held = view.has(before.code);
        return held === before.held ? before : { ...before, held };
      });
    };
    readerFactory(video, onFrame).then(
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
