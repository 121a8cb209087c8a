// The frame both scanning screens share (/admin/scan, /admin/scan2): the page header with its links
// to the neighbouring screens, then one panel that starts with the scanner (the hidden USB-scanner
// input and the camera button, with whatever the screen puts beside them, e.g. scan2's product) and
// the banner of the last scan, followed by the screen's own content. A clerk moving between the two
// screens finds the scanner and the banner in the same place. The open camera is a panel between the
// scanner line and the banner (not a dialog over the page): what it read, then the page's answer; it
// reads the symbologies of the field the screen says the next scan fills (cameraField).
import { Link } from '@tanstack/react-router';
import { useState, type JSX, type ReactNode } from 'react';
import { CameraPanel } from '../../components/camera-scanner';
import type { CameraField } from '../../lib/camera-reads';
import { secondaryLinkClass } from '../../components/ui/link-classes';
import { PageHeader, Panel } from '../../components/ui/page';
import { ScanBanner, ScannerControls, type BannerTone } from './scan-feedback';

/** A screen the station's header links to. */
export interface StationLink {
  to: '/admin/scan' | '/admin/scan2' | '/admin/item-list' | '/admin/tracking-list';
  label: string;
}

export interface ScanStationProps {
  title: string;
  description: string;
  links: readonly StationLink[];
  /** Every code read, from the USB scanner or the camera. */
  onScan: (code: string) => void;
  /** What the next scan fills: the camera looks only for that field's symbologies (decision 082). */
  cameraField: CameraField;
  /** What the banner says about the last scan, and its colour. */
  banner: { tone: BannerTone; text: ReactNode };
  /** Shown before the scanner controls, on the same line (a choice the scans depend on). */
  tools?: ReactNode;
  /** Receives the function that gives the scanner input the focus back. */
  focusRef?: { current: (() => void) | null };
  /** The screen's own content, under the banner. */
  children: ReactNode;
}

export function ScanStation({ title, description, links, onScan, cameraField, banner, tools, focusRef, children }: ScanStationProps): JSX.Element {
  const [cameraOpen, setCameraOpen] = useState(false);
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title={title}
        description={description}
        actions={links.map((link) => (
          <Link key={link.to} to={link.to} className={secondaryLinkClass}>
            {link.label}
          </Link>
        ))}
      />
      <Panel>
        <div className="flex flex-col gap-4">
          <div className="flex flex-wrap items-end gap-4">
            {tools}
            <ScannerControls onScan={onScan} focusRef={focusRef} camera={{ open: cameraOpen, onToggle: () => setCameraOpen((open) => !open) }} />
          </div>
          {cameraOpen && <CameraPanel onScan={onScan} field={cameraField} />}
          <ScanBanner tone={banner.tone}>{banner.text}</ScanBanner>
          {children}
        </div>
      </Panel>
    </div>
  );
}
