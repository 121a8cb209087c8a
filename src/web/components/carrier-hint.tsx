// Where a member types a tracking id (the record dialog, the bulk records): the carrier of what was
// typed, as the field's hint. These forms load the carriers' patterns with them (machines/carrier.ts).
import type { JSX } from 'react';
import { carrierOf } from '../../../machines/carrier';
import { zh } from '../i18n/zh';

/**
 * Where a member types a tracking id: the carrier its canonical key belongs to (decision 097), and a
 * warning when the carrier's check digit fails - a warning only, the id is still taken. Nothing for
 * an id no known carrier writes so.
 */
export function trackingCarrierHint(value: string): JSX.Element | null {
  const carrier = carrierOf(value);
  if (!carrier) return null;
  return (
    <span data-testid="tracking-carrier">
      {zh.tasks.trackingCarrier(carrier.name)}
      {!carrier.checkDigitOk && <span className="ml-2 text-amber-700">{zh.tasks.trackingCheckDigitFailed}</span>}
    </span>
  );
}
