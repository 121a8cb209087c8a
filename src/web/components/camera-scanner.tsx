// Scanning with the device's camera, for a clerk without a USB scanner. Decoded codes go to the same
// `onScan` as the scanner input, so the page's machine sees no difference.
//
// The reader uses the browser's BarcodeDetector where there is one, else the ZXing decoder, which is
// imported only when the camera is first opened (its own chunk: nothing of it is in the main
// bundle). A code seen again within REPEAT_MS is the same barcode still in front of the camera, not a
// new scan. Tests (and other devices) replace the reader with setCameraReaderFactory.
import { useEffect, useRef, useState, type JSX } from 'react';
import { Button } from './ui/button';
import { Modal } from './ui/dialog';
import { zh } from '../i18n/zh';

const t = zh.scan.camera;

/** The same code within this long is one scan. */
export const REPEAT_MS = 1500;
/** How often BarcodeDetector looks at the video. */
const DETECT_INTERVAL_MS = 200;

export interface CameraReader {
  stop(): void;
}

/** Starts reading codes from the camera into `video`; rejects when no camera can be used. */
export type CameraReaderFactory = (video: HTMLVideoElement, onCode: (code: string) => void) => Promise<CameraReader>;

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

async function barcodeDetectorReader(Detector: BarcodeDetectorClass, video: HTMLVideoElement, onCode: (code: string) => void): Promise<CameraReader> {
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
      .then((codes) => {
        for (const code of codes) if (code.rawValue) onCode(code.rawValue);
      })
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, DETECT_INTERVAL_MS);
  return {
    stop() {
      clearInterval(timer);
      for (const track of stream.getTracks()) track.stop();
      video.srcObject = null;
    },
  };
}

async function zxingReader(video: HTMLVideoElement, onCode: (code: string) => void): Promise<CameraReader> {
  const { BrowserMultiFormatReader } = await import('@zxing/browser');
  const reader = new BrowserMultiFormatReader();
  const controls = await reader.decodeFromConstraints(CAMERA_CONSTRAINTS, video, (result) => {
    if (result) onCode(result.getText());
  });
  return { stop: () => controls.stop() };
}

/** BarcodeDetector when the browser has it, else ZXing. */
export const browserCameraReader: CameraReaderFactory = (video, onCode) => {
  const Detector = barcodeDetectorClass();
  return Detector ? barcodeDetectorReader(Detector, video, onCode) : zxingReader(video, onCode);
};

let readerFactory: CameraReaderFactory = browserCameraReader;
let supported: () => boolean = cameraSupported;

/** Replaces the camera (tests); null restores the browser's. */
export function setCameraReaderFactory(factory: CameraReaderFactory | null, isSupported?: () => boolean): void {
  readerFactory = factory ?? browserCameraReader;
  supported = factory ? (isSupported ?? (() => true)) : cameraSupported;
}

export interface CameraScannerProps {
  onScan: (code: string) => void;
  disabled?: boolean;
}

/** A button that opens the camera in a dialog; each new code read is passed to onScan. */
export function CameraScanner({ onScan, disabled }: CameraScannerProps): JSX.Element {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" disabled={disabled} onClick={() => setOpen(true)}>
        {t.open}
      </Button>
      <Modal open={open} onClose={() => setOpen(false)} title={t.title} footer={<Button onClick={() => setOpen(false)}>{t.close}</Button>}>
        {open && <CameraView onScan={onScan} />}
      </Modal>
    </>
  );
}

type CameraState = 'starting' | 'running' | 'unsupported' | 'denied';

function CameraView({ onScan }: { onScan: (code: string) => void }): JSX.Element {
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const [state, setState] = useState<CameraState>(() => (supported() ? 'starting' : 'unsupported'));
  const onScanRef = useRef(onScan);
  useEffect(() => {
    onScanRef.current = onScan;
  });

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !supported()) return;
    let live = true;
    let reader: CameraReader | null = null;
    let last = { code: '', at: 0 };
    const onCode = (raw: string) => {
      const code = raw.trim();
      const now = Date.now();
      if (!code || (code === last.code && now - last.at < REPEAT_MS)) return;
      last = { code, at: now };
      onScanRef.current(code);
    };
    readerFactory(video, (code) => live && onCode(code)).then(
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
    <div className="flex flex-col gap-2">
      {state === 'unsupported' ? (
        <p role="alert" className="text-sm text-red-600">
          {t.unsupported}
        </p>
      ) : state === 'denied' ? (
        <p role="alert" className="text-sm text-red-600">
          {t.denied}
        </p>
      ) : (
        <p className="text-sm text-slate-500">{state === 'starting' ? t.starting : t.hint}</p>
      )}
      <video
        ref={videoRef}
        aria-label={t.video}
        muted
        playsInline
        className={`w-full rounded-md bg-slate-900 ${state === 'running' || state === 'starting' ? '' : 'hidden'}`}
      />
    </div>
  );
}
