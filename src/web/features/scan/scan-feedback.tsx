// What both scanning pages show of the last scan: a coloured banner that reads as a live region,
// and the hidden scanner input with the camera button. The colour and the sound (lib/scan-sounds)
// say the outcome; the text says what to do.
import { useEffect, type JSX, type ReactNode } from 'react';
import { CameraButton } from '../../components/camera-scanner';
import { useScannerInput } from '../../lib/use-scanner-input';
import { zh } from '../../i18n/zh';

export type BannerTone = 'idle' | 'ok' | 'warn' | 'error' | 'info';

const TONE_CLASS: Record<BannerTone, string> = {
  idle: 'border-slate-200 bg-slate-50 text-slate-600',
  ok: 'border-green-300 bg-green-100 text-green-900',
  warn: 'border-amber-300 bg-amber-100 text-amber-900',
  error: 'border-red-400 bg-red-100 text-red-900',
  info: 'border-blue-200 bg-blue-50 text-blue-900',
};

export function ScanBanner({ tone, children }: { tone: BannerTone; children: ReactNode }): JSX.Element {
  return (
    <div role="status" aria-live="polite" data-tone={tone} className={`rounded-lg border-2 px-4 py-3 text-base font-semibold ${TONE_CLASS[tone]}`}>
      {children}
    </div>
  );
}

/** The hidden USB-scanner input (sending codes to `onScan`) and the button of the camera panel. */
export function ScannerControls({
  onScan,
  focusRef,
  camera,
}: {
  onScan: (code: string) => void;
  focusRef?: { current: (() => void) | null };
  camera: { open: boolean; onToggle: () => void };
}): JSX.Element {
  const scanner = useScannerInput({ onScan, label: zh.scan.scanner.inputLabel });
  const focus = scanner.focus;
  useEffect(() => {
    if (focusRef) focusRef.current = focus;
  }, [focusRef, focus]);
  return (
    <div className="flex items-center gap-3">
      <input {...scanner.inputProps} />
      <span className="flex items-center gap-1.5 text-xs text-slate-500">
        <span aria-hidden="true" className="size-2 rounded-full bg-green-500" />
        {zh.scan.scanner.ready}
      </span>
      <CameraButton open={camera.open} onToggle={camera.onToggle} />
    </div>
  );
}
