// Schema pieces shared by the auth forms (SPEC §5).
import * as v from 'valibot';
import { UI_TEXT } from '../../components/ui/ui-text';

/**
 * A secret that must be non-empty after trimming ('{label}为必填项') but is sent exactly as typed:
 * trimming a password on one form and not on another would lock people out.
 */
export function requiredSecret(label: string) {
  const message = UI_TEXT.requiredField(label);
  return v.pipe(
    v.string(message),
    v.check((value) => value.trim() !== '', message),
  );
}
