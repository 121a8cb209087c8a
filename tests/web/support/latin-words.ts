// What a person reads on a page, and the Latin words in it that are not data: the interface is in
// Chinese, so a visible label (a text node, or an element's aria-label, placeholder, title or alt)
// with a word of Latin letters is a field name or an English word left in it, unless the word is
// data the server sent (a name, a code, a tracking id: `data`), a code of the page itself (text in
// a <code> element, an e-mail address, a link, a file extension: CODES), an allowed acronym or a
// product's name (ALLOWED_WORDS). A status, an action or a payment type is a code the page must
// put into words, so the values of such fields are never counted as data (CODE_FIELDS).

/**
 * Latin words a Chinese interface uses as they are, each for a reason:
 * - acronyms read as such in Chinese: UPC (the product code), ID, QQ (the messenger, SPEC §2 /me),
 *   PDF (the label file), Excel (the spreadsheet files), ACH (the US bank transfer), UTC (the time
 *   zone of the date filters);
 * - names of products and brands: PayPal, Zelle (payment services), Visa, Mastercard, American
 *   Express (card networks).
 */
export const ALLOWED_WORDS: ReadonlySet<string> = new Set([
  'UPC',
  'ID',
  'QQ',
  'PDF',
  'Excel',
  'ACH',
  'UTC',
  'PayPal',
  'Zelle',
  'Visa',
  'Mastercard',
  'American',
  'Express',
]);

/** Answer fields that hold a code the page must show in words: their values are not data. */
export const CODE_FIELDS: ReadonlySet<string> = new Set([
  'status',
  'action',
  'entity',
  'paymentType',
  'cardType',
  'roleType',
  'opStatus',
  'sendStatus',
  'taskStatus',
  'before',
  'after',
]);

/** Every text value of an answer (`data`), but those of CODE_FIELDS. */
export function dataTexts(value: unknown, into: Set<string>, field = ''): Set<string> {
  if (typeof value === 'string') {
    if (!CODE_FIELDS.has(field) && value.trim() !== '') into.add(value.trim());
  } else if (Array.isArray(value)) {
    for (const v of value) dataTexts(v, into, field);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) dataTexts(v, into, k);
  }
  return into;
}

const LABEL_ATTRIBUTES = ['aria-label', 'placeholder', 'title', 'alt', 'aria-description', 'aria-roledescription'];

/** Addresses and file types, written as they are typed: an e-mail address, a link's scheme, a file extension. */
const CODES = [/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, /https?:\/\/\S*/g, /(?<![A-Za-z])\.(xlsx|xls|ods|csv)\b/g];

/** Elements whose text is a code, shown as it is (a command barcode's text, a key). */
const CODE_ELEMENTS = new Set(['CODE', 'KBD', 'SAMP']);

/** Every label of `root` a person reads or hears: its text nodes (not a code's) and the labelling attributes. */
export function visibleLabels(root: Element): string[] {
  const labels: string[] = [];
  const walker = root.ownerDocument.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent && ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) continue;
    if (parent?.closest([...CODE_ELEMENTS].join(','))) continue;
    const text = (node.textContent ?? '').trim();
    if (text) labels.push(text);
  }
  for (const el of root.querySelectorAll('*')) {
    for (const name of LABEL_ATTRIBUTES) {
      const text = el.getAttribute(name)?.trim();
      if (text) labels.push(text);
    }
    if (el.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes((el as HTMLInputElement).type)) labels.push((el as HTMLInputElement).value);
  }
  return labels;
}

/** The labels with a Latin word (two letters or more) that is neither data nor allowed, each with its words. */
export function latinWords(labels: readonly string[], data: ReadonlySet<string>): { label: string; words: string[] }[] {
  // Longest first, so a name is taken out whole before a shorter name inside it.
  const known = [...data].sort((a, b) => b.length - a.length);
  const found: { label: string; words: string[] }[] = [];
  for (const label of labels) {
    let rest = label;
    for (const text of known) if (rest.includes(text)) rest = rest.split(text).join(' ');
    for (const code of CODES) rest = rest.replace(code, ' ');
    const words = (rest.match(/[A-Za-z]{2,}/g) ?? []).filter((word) => !ALLOWED_WORDS.has(word));
    if (words.length > 0) found.push({ label, words });
  }
  return found;
}
