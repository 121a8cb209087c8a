// The command barcodes of the scanning stations (machines/scan-station.ts SCAN_COMMANDS; docs/decisions/081,
// 085): 提交, 下一个包裹, 取消 as Code 128 barcodes the clerk's scanner reads from the screen or from a
// printed sheet, as warehouse apps such as Odoo Barcode do, so a parcel is received without the
// mouse. One set of codes for both stations (one printed sheet); each station says what they do
// there (`commands`, /admin/scan's by default). Drawn by bwip-js (the labels' barcode library),
// loaded only when the page shows them.
import { useEffect, useState, type JSX } from 'react';
import { SCAN_COMMANDS, type ScanCommand } from '../../../../machines/scan-station';
import { zh } from '../../i18n/zh';

const s = zh.scan.scan;
const ORDER: readonly ScanCommand[] = ['submit', 'nextParcel', 'cancel'];

/** The SVG of a Code 128 barcode of `text`, with the text under it. */
async function code128Svg(text: string): Promise<string> {
  const { code128, drawingSVG } = await import('bwip-js/browser');
  return code128({ bcid: 'code128', text, scale: 2, height: 10, includetext: true, textxalign: 'center' }, drawingSVG());
}

type CommandTexts = Record<ScanCommand, { label: string; hint: string }>;

export function CommandBarcodes({ commands = s.commands, className = '' }: { commands?: CommandTexts; className?: string }): JSX.Element {
  return (
    <section aria-labelledby="scan-commands" className={`hidden rounded-lg border border-slate-200 p-3 sm:block ${className}`}>
      <h2 id="scan-commands" className="text-sm font-semibold text-slate-800">
        {s.commandsCaption}
      </h2>
      <p className="mb-2 text-xs text-slate-500">{s.commandsHint}</p>
      <ul className="flex flex-wrap gap-4">
        {ORDER.map((command) => (
          <li key={command}>
            <CommandBarcode code={SCAN_COMMANDS[command]} label={commands[command].label} hint={commands[command].hint} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function CommandBarcode({ code, label, hint }: { code: string; label: string; hint: string }): JSX.Element {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    code128Svg(code).then(
      (drawn) => live && setSvg(drawn),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [code]);
  return (
    <figure className="flex w-56 flex-col items-center gap-1" data-command={code}>
      {svg ? (
        // bwip-js's own SVG of our constant code: no user input reaches it.
        <div role="img" aria-label={s.commandBarcode(label)} className="w-full [&>svg]:h-auto [&>svg]:w-full" dangerouslySetInnerHTML={{ __html: svg }} />
      ) : (
        <code className="text-xs text-slate-600">{code}</code>
      )}
      <figcaption className="text-center">
        <span className="block text-sm font-semibold text-slate-800">{label}</span>
        <span className="block text-xs text-slate-500">{hint}</span>
      </figcaption>
    </figure>
  );
}
