// What the two receiving stations share (/admin/scan, scan.machine.ts; /admin/scan2, scan2.machine.ts):
// the command barcodes, the product being scanned and the kinds of feedback (sounds). A file of its
// own so that neither machine imports the other (import-x/no-cycle, docs/decisions/039-no-import-cycles.md).

/** The product being scanned (an item of the catalog). */
export interface ScanItem {
  id: number;
  itemName: string;
  upc: string;
}

/** productCode: a product's code read where a tracking id was expected (decision 074). */
export type FeedbackKind = 'accepted' | 'duplicate' | 'unknown' | 'matched' | 'unmatched' | 'failed' | 'productCode';

/**
 * The codes of the command barcodes (Code 128), one per command; the page renders them and a clerk
 * may print them. Prefixed so that no tracking id or upc is mistaken for one.
 */
export const SCAN_COMMANDS = {
  submit: 'PH-CMD-SUBMIT',
  nextParcel: 'PH-CMD-NEXT',
  cancel: 'PH-CMD-CANCEL',
} as const;
export type ScanCommand = keyof typeof SCAN_COMMANDS;

/** The command a scanned code is, or null for a tracking id or a upc. */
export function scanCommandOf(raw: string): ScanCommand | null {
  const code = raw.trim().toUpperCase();
  for (const [command, value] of Object.entries(SCAN_COMMANDS)) if (value === code) return command as ScanCommand;
  return null;
}
