// The shipping labels of one task as a PDF (DECISIONS "Files"): one 4x6 inch page per label
// (labelCount, at least one), each with the task id (mainId, plus '-subId' when subId is not 0),
// the user, the item, the UPC as a scannable barcode and the isHome / state / zipCode details.
//
// The barcode is drawn by bwip-js as a PNG: UPC-A or EAN-13 when the UPC is a valid code of that
// kind (what a retail scanner expects), otherwise Code 128 of the text as it is; no UPC, no barcode.
// Names are often Chinese, which the PDF standard fonts cannot show: a CJK font installed on the
// machine is embedded (subset) when one is found (CI installs fonts-wqy-microhei, as for chromium);
// without one the labels fall back to Helvetica with English captions, and characters of names
// it cannot show print as '?'.
// pdfkit and bwip-js (~0.25 s to load) are loaded with the first label, not when the server starts.
import { taskDisplayId } from '../../../machines/task.machine.ts';
import fs from 'node:fs';

export interface LabelTask {
  mainId: number;
  subId: number;
  itemId: number;
  itemName: string;
  upc: string | null;
  count: number;
  isHome: boolean;
  state: string | null;
  zipCode: string | null;
  labelCount: number | null;
}

export interface LabelUser {
  nickName: string;
  mailAddr: string;
}

/** A label PDF never has more pages than this, whatever labelCount says. */
export const MAX_LABEL_PAGES = 500;

/** Task id as people see it: mainId, or mainId-subId for a split sibling (SPEC §2). */

export const labelPageCount = (t: Pick<LabelTask, 'labelCount'>) => Math.min(MAX_LABEL_PAGES, Math.max(1, t.labelCount ?? 1));

/** Fonts tried in order: [file, PostScript name inside a collection]. */
const CJK_FONTS: [string, string | undefined][] = [
  ['/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', 'WenQuanYiMicroHei'],
  ['/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc', 'WenQuanYiZenHei'],
  ['/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', 'NotoSansCJKsc-Regular'],
  ['/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf', undefined],
];

let fontCache: { data: Buffer; family: string | undefined } | null | undefined;

function cjkFont() {
  if (fontCache !== undefined) return fontCache;
  fontCache = null;
  for (const [file, family] of CJK_FONTS) {
    try {
      fontCache = { data: fs.readFileSync(file), family };
      break;
    } catch {
      // not installed here: try the next one
    }
  }
  return fontCache;
}

/** GTIN check digit rule (UPC-A, EAN-13). */
export function validGtin(code: string): boolean {
  if (!/^\d+$/.test(code)) return false;
  const digits = [...code].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((s, d, i) => s + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

/** Which symbology the UPC is drawn in, or null when there is nothing to draw. */
export function barcodeKind(upc: string | null): 'upca' | 'ean13' | 'code128' | null {
  const text = (upc ?? '').trim();
  if (!text) return null;
  if (text.length === 12 && validGtin(text)) return 'upca';
  if (text.length === 13 && validGtin(text)) return 'ean13';
  return /^[\x20-\x7e]{1,80}$/.test(text) ? 'code128' : null;
}

/**
 * How each symbology prints its digits: UPC-A and EAN-13 in their standard layout (the digits
 * between the extended guard bars, the first and last outside them), never one centred line, which
 * bwip-js draws across the guard bars; Code 128 as one centred line set below the bars.
 */
const BARCODE_TEXT = {
  upca: { includetext: true },
  ean13: { includetext: true },
  code128: { includetext: true, textxalign: 'center', textyoffset: -3 },
} as const;

async function barcodePng(upc: string | null): Promise<Buffer | null> {
  const kind = barcodeKind(upc);
  if (!kind) return null;
  const text = upc!.trim();
  const { default: bwipjs } = await import('bwip-js/node');
  try {
    return await bwipjs.toBuffer({ bcid: kind, text, scale: 3, height: 14, ...BARCODE_TEXT[kind] });
  } catch {
    if (kind === 'code128') return null;
    try {
      return await bwipjs.toBuffer({ bcid: 'code128', text, scale: 3, height: 14, ...BARCODE_TEXT.code128 });
    } catch {
      return null;
    }
  }
}

/** The label's own words: Chinese with a CJK font, English when the machine has none. */
const LABEL_WORDS = {
  zh: {
    title: '采购任务协作平台 发货标签',
    task: '任务',
    user: '用户：',
    item: '商品：',
    itemId: '商品ID：',
    count: '认领数量：',
    colon: '：',
    none: '无',
    isHome: '寄到家：',
    state: '州：',
    zipCode: '邮编：',
    yes: '是',
    no: '否',
  },
  en: {
    title: 'Purchase Hub shipping label',
    task: 'Task',
    user: 'User: ',
    item: 'Item: ',
    itemId: 'Item ID: ',
    count: 'Count: ',
    colon: ': ',
    none: 'none',
    isHome: 'Ship to home: ',
    state: 'State: ',
    zipCode: 'ZIP code: ',
    yes: 'yes',
    no: 'no',
  },
} as const;

/** The labels of one task: a complete PDF file. */
export async function renderLabelsPdf(task: LabelTask, user: LabelUser): Promise<Buffer> {
  const pages = labelPageCount(task);
  const barcode = await barcodePng(task.upc);
  const id = taskDisplayId(task);
  const font = cjkFont();
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: [288, 432],
    margin: 18,
    autoFirstPage: false,
    info: { Title: font ? `发货标签 ${id}` : `Labels ${id}`, Author: font ? '采购任务协作平台' : 'Purchase Hub' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  if (font) doc.registerFont('label', font.data, font.family);
  const fontName = font ? 'label' : 'Helvetica';
  const words = font ? LABEL_WORDS.zh : LABEL_WORDS.en;
  // Helvetica (WinAnsi) shows Latin-1 only.
  const show = (text: string) => (font ? text : text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?'));
  const width = 288 - 36;

  for (let i = 1; i <= pages; i++) {
    doc.addPage();
    doc.font(fontName).fontSize(9).fillColor('#555555').text(words.title, { width });
    doc.text(`${i} / ${pages}`, 18, 18, { width, align: 'right' });
    doc.moveDown(0.8);
    doc.fillColor('#000000').fontSize(26).text(`${words.task} ${id}`, 18, doc.y, { width });
    doc.moveDown(0.3);
    doc.fontSize(11).text(show(`${words.user}${user.nickName}`), { width, height: 30, ellipsis: true });
    doc.fontSize(9).fillColor('#333333').text(show(user.mailAddr), { width, height: 24, ellipsis: true });
    doc.moveDown(0.4);
    doc
      .fillColor('#000000')
      .fontSize(12)
      .text(show(`${words.item}${task.itemName}`), { width, height: 60, ellipsis: true });
    doc.fontSize(9).text(`${words.itemId}${task.itemId}    ${words.count}${task.count}`, { width });
    doc.moveDown(0.6);
    if (barcode) {
      doc.image(barcode, 18 + (width - 200) / 2, doc.y, { fit: [200, 80], align: 'center' });
      doc.y += 86;
    }
    doc.fontSize(10).text(show(`UPC${words.colon}${task.upc?.trim() || words.none}`), 18, doc.y, { width });
    doc.moveDown(0.6);
    doc.fontSize(12);
    doc.text(`${words.isHome}${task.isHome ? words.yes : words.no}`, { width });
    doc.text(show(`${words.state}${task.state?.trim() || '-'}`), { width });
    doc.text(show(`${words.zipCode}${task.zipCode?.trim() || '-'}`), { width });
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
