// Bank card fields at rest (DECISIONS "Money": card number, account holder name and routing number
// are encrypted with AES-256-GCM, key from APP_SECRET, and masked in every response). Stored as
// versioned text `v1.<iv>.<cipher text>.<tag>` (base64url), so a later key or algorithm change can
// tell old values from new ones. Only the last characters are stored beside the cipher text (the
// *_last4 columns, lastChars), so listing cards and withdraw lines never needs the key.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { resolveAppSecret, type Config } from '../config.ts';
import { MASK } from '../../../machines/bank-card.ts';

export type CardField = 'accountName' | 'cardNo' | 'routingNumber';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const keys = new WeakMap<Config, Buffer>();

/**
 * The AES-256 key of this configuration (derived once).
 *
 * Derived from resolveAppSecret(config) (APP_SECRET, or the secret generated once into DATA_DIR)
 * with HKDF-SHA256 and a fixed purpose label, so the secret itself is never the key and another use
 * of the same secret gets an unrelated key. It is derived once per Config object.
 */
export function cardKey(config: Config): Buffer {
  let key = keys.get(config);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', resolveAppSecret(config), 'purchase-hub', 'bank-card-fields/aes-256-gcm/v1', 32));
    keys.set(config, key);
  }
  return key;
}

/**
 * Every value gets a fresh random 96-bit IV; the field's name is the GCM associated data, so a
 * cipher text copied into another column (a routing number into card_no) does not decrypt.
 */
export function encryptField(key: Buffer, field: CardField, value: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(field, 'utf8'));
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** The clear value of a stored field; throws when it was not made by encryptField with this key and field. */
export function decryptField(key: Buffer, field: CardField, stored: string): string {
  const parts = stored.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('card field: unknown format');
  const [, iv, body, tag] = parts as [string, string, string, string];
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(field, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * The characters kept in clear for the mask: the last four, at most half of the value.
 *
 * The masked form shown everywhere is '****' followed by these: the last four, but never more than
 * half of the value (a three-letter name shows one letter), so a short value is not shown whole.
 */
export function lastChars(value: string): string {
  const chars = [...value];
  const n = Math.min(4, Math.floor(chars.length / 2));
  return n > 0 ? chars.slice(-n).join('') : '';
}

/** What responses show: '****' and the stored last characters; '' when there is no value. */
export const masked = (last: string | null | undefined): string => (last === null || last === undefined ? '' : `${MASK}${last}`);

/** A value to store: its cipher text and its last characters. */
export function sealField(key: Buffer, field: CardField, value: string): { encrypt: string; last4: string } {
  return { encrypt: encryptField(key, field, value), last4: lastChars(value) };
}
