// The canonical form of a tracking id (machines/tracking-id.ts, decision 097) and its carrier (machines/carrier.ts): every way the issue
// saw one parcel written gives one key, the key of a key is itself, and the carrier (with its check
// digit) is recognised on real ids and on the barcode forms their labels carry.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carrierOf } from '../../machines/carrier';
import {
  canonicalTrackingId,
  GS1_SEPARATOR,
  isNearTrackingId,
  isOneEditApart,
  nearMissMessages,
  NEAR_MIN_LENGTH,
  sameTrackingId,
  trackingIdError,
} from '../../machines/tracking-id';

const toFullWidth = (s: string) => s.replace(/[!-~]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));

// Real ids per carrier (the public tracking_number_data test numbers, which carry valid check
// digits) and what their labels' barcodes or courier sites show for the same parcel.
const table: { carrier: string; key: string; forms: string[] }[] = [
  { carrier: 'ups', key: '1Z5R89390357567127', forms: ['1Z 5R8 939 03 5756 7127', '1z5r89390357567127', ']C11Z5R89390357567127'] },
  { carrier: 'fedex', key: '986578788855', forms: ['9865 7878 8855', '9622001900000000000000986578788855'] },
  { carrier: 'fedex', key: '776632517510', forms: ['9622001900000000000000776632517510', ']C19622001900000000000000776632517510'] },
  { carrier: 'fedex', key: '041441760228964', forms: ['0414 4176 0228 964', '9611020041441760228964'] },
  {
    carrier: 'usps',
    key: '9101026837331000039521',
    forms: ['420 22153 9101026837331000039521', `]C142022153${GS1_SEPARATOR}9101026837331000039521`, '4202215312349101026837331000039521'],
  },
  { carrier: 'usps', key: '9505511069605048600624', forms: ['9505 5110 6960 5048 6006 24', `42090210${GS1_SEPARATOR}9505511069605048600624`] },
  { carrier: 'dhl', key: '3318810025', forms: ['331 881 0025', ']C03318810025'] },
  { carrier: 'amazon', key: 'TBA123456789000', forms: [']C1TBA123456789000', 'tba-123456789-000'] },
  { carrier: 'chinapost', key: 'RR123456785CN', forms: ['rr 123 456 785 cn', ']Q3RR123456785CN'] },
  { carrier: 'sf', key: 'SF1234567890123', forms: ['sf 1234 5678 90123', toFullWidth('SF1234567890123')] },
];

describe('one key per parcel', () => {
  it.each(table)('$carrier $key: every written form gives the key and the carrier', ({ carrier, key, forms }) => {
    expect(canonicalTrackingId(key)).toBe(key);
    for (const form of forms) expect(canonicalTrackingId(form), form).toBe(key);
    expect(carrierOf(key)).toMatchObject({ code: carrier, checkDigitOk: true });
    for (const form of forms) expect(carrierOf(form)?.code, form).toBe(carrier);
  });

  it('the forms the issue saw of one parcel give one key', () => {
    const ups = [
      '1Z999AA10123456784',
      '1Z999AA10123456784\u200b',
      '\ufeff1Z999AA1\u00ad0123456784',
      ' 1z999aa10123456784 ',
      '1Z 999 AA1 0123 456 784',
      '1Z-999-AA1-0123-456-784',
    ];
    ups.push(toFullWidth('1Z999AA10123456784'), '１Ｚ９９９ＡＡ１ ０１２３ ４５６ ７８４', '1Z\u3000999AA10123456784');
    for (const form of ups) expect(canonicalTrackingId(form), JSON.stringify(form)).toBe('1Z999AA10123456784');
    expect(canonicalTrackingId('７７２３１２３４５６７８')).toBe('772312345678');
    expect(canonicalTrackingId('0012345678901')).toBe('0012345678901'); // leading zeros are part of the id
    expect(sameTrackingId(']C1TBA123456789000', 'TBA123456789000')).toBe(true);
    expect(sameTrackingId('420902109400111899223408000000', '9400 1118 9922 3408 0000 00')).toBe(true);
    expect(sameTrackingId('1Z999AA10123456784', '1Z999AA10123456785')).toBe(false);
  });

  it('takes only the decorations a scanner adds where it adds them', () => {
    // GS1 with a 421 routing field (country + postal code) or other fields: the routing goes, the rest is the id.
    expect(canonicalTrackingId(`42184090210${GS1_SEPARATOR}1Z999AA10123456784`)).toBe('1Z999AA10123456784');
    expect(canonicalTrackingId(` ]C142184090210${GS1_SEPARATOR}1Z999AA10123456784 `)).toBe('1Z999AA10123456784');
    expect(canonicalTrackingId(`42090210${GS1_SEPARATOR}1Z999AA14201234567`)).toBe('1Z999AA14201234567'); // 420 inside the id is the id
    expect(canonicalTrackingId(`1Z999AA1${GS1_SEPARATOR}0123456784`)).toBe('1Z999AA10123456784');
    // USPS IMpb with a 20-digit id; FedEx's 34-digit barcode of a 15-digit Ground number.
    expect(canonicalTrackingId('4209021012345678901234567890')).toBe('12345678901234567890');
    expect(canonicalTrackingId('14209021012345678901234567890')).toBe('14209021012345678901234567890'); // 420 only leads
    expect(canonicalTrackingId('9612019000000000000041441760228964')).toBe('041441760228964');
    expect(carrierOf('9612019000000000000041441760228964')?.code).toBe('fedex');
    // Runs of digits one longer than FedEx's barcodes, or not starting with its 96, are no FedEx barcode.
    for (const id of ['96' + '1'.repeat(33), '1' + '96' + '2'.repeat(32), '96' + '3'.repeat(21), '1' + '96' + '4'.repeat(20)]) {
      expect(canonicalTrackingId(id), id).toBe(id);
    }
    // A scanner that sends the symbol's leading FNC1 as GS: an IMpb read in one field is still its id.
    expect(canonicalTrackingId(`${GS1_SEPARATOR}420902109400111899223408000000`)).toBe('9400111899223408000000');
    expect(canonicalTrackingId(`${GS1_SEPARATOR}42090210${GS1_SEPARATOR}9505511069605048600624`)).toBe('9505511069605048600624');
    // An AIM prefix is only a prefix; a control character inside an id is dropped.
    expect(canonicalTrackingId('TBA]A1234567')).toBe('TBA]A1234567');
    expect(canonicalTrackingId('1Z999AA1\u00070123456784')).toBe('1Z999AA10123456784');
  });

  it('the key of a key is itself, also when a first pass exposes another barcode form', () => {
    const impbOfA96 = `4209021096${'1234567890'.repeat(2)}`; // IMpb of a 22-digit id beginning 96
    expect(canonicalTrackingId(impbOfA96)).toBe('678901234567890');
    expect(canonicalTrackingId(canonicalTrackingId(impbOfA96))).toBe(canonicalTrackingId(impbOfA96));
  });

  it('refuses an empty id, one longer than 64 characters and one with a control character, in Chinese', () => {
    expect(trackingIdError(' ]C1 ')).toBe('请填写trackingId');
    expect(trackingIdError('1'.repeat(64))).toBeNull();
    expect(trackingIdError('1'.repeat(65))).toBe('快递单号不能超过64个字符');
    expect(trackingIdError('1Z999AA1\u00000123456784')).toBe('快递单号包含无效字符');
    expect(trackingIdError(`42090210${GS1_SEPARATOR}9505511069605048600624`)).toBeNull(); // the scanner's GS is no invalid character
    expect(trackingIdError(`42090210${GS1_SEPARATOR}95055110696\u000050486006240`)).toBe('快递单号包含无效字符'); // another one beside it is
  });

  it('nothing but decorations is no id', () => {
    for (const form of ['', '   ', '\u200b', ']C1', ' - ', GS1_SEPARATOR]) expect(canonicalTrackingId(form), JSON.stringify(form)).toBe('');
  });
});

describe('properties', () => {
  // Ids as couriers print them, and the decorations people and scanners add.
  const id = fc.stringMatching(/^[0-9A-Z]{8,30}$/);
  const decorate = fc.record({
    lower: fc.boolean(),
    full: fc.boolean(),
    aim: fc.constantFrom('', ']C1', ']E0', ']d2', ']Q3'),
    pad: fc.constantFrom('', ' ', '\t', '\u200b', '\ufeff', '\u3000'),
    sep: fc.constantFrom('', ' ', '-', '\u200b', '\u00ad', '\u2060'),
  });
  const written = (key: string, d: { lower: boolean; full: boolean; aim: string; pad: string; sep: string }) => {
    let s = key.replace(/(.{4})(?=.)/g, `$1${d.sep}`);
    if (d.lower) s = s.toLowerCase();
    if (d.full) s = toFullWidth(s);
    return `${d.pad}${d.aim}${s}${d.pad}`;
  };

  it('is idempotent on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (s) => canonicalTrackingId(canonicalTrackingId(s)) === canonicalTrackingId(s)),
      { numRuns: 300 },
    );
  });

  it('is idempotent on ids with their decorations', () => {
    fc.assert(
      fc.property(id, decorate, (key, d) => {
        const k = canonicalTrackingId(written(key, d));
        return canonicalTrackingId(k) === k;
      }),
    );
  });

  it('every decorated form of an id gives the key of the plain id', () => {
    fc.assert(fc.property(id, decorate, decorate, (key, a, b) => canonicalTrackingId(written(key, a)) === canonicalTrackingId(written(key, b))));
  });

  it('a key holds only upper-case letters and digits when the id did', () => {
    fc.assert(fc.property(id, decorate, (key, d) => /^[0-9A-Z]*$/.test(canonicalTrackingId(written(key, d)))));
  });
});

describe('carrier and check digit', () => {
  it('a failed check digit is still its carrier, flagged', () => {
    expect(carrierOf('1Z999AA10123456785')).toMatchObject({ code: 'ups', name: 'UPS', checkDigitOk: false });
    expect(carrierOf('RR123456784CN')).toMatchObject({ code: 'chinapost', checkDigitOk: false });
    expect(carrierOf('9505511069605048600625')).toMatchObject({ code: 'usps', checkDigitOk: false });
  });

  it('names the carrier in Chinese and English', () => {
    expect(carrierOf('RR123456785CN')).toEqual({ code: 'chinapost', name: '中国邮政/EMS', nameEn: 'China Post/EMS', checkDigitOk: true });
    expect(carrierOf('RB123456785GB')).toMatchObject({ code: 's10', checkDigitOk: true });
  });

  it('names every carrier as the member and the clerk read it', () => {
    const names: [string, string, string][] = [
      ['1Z5R89390357567127', 'UPS', 'UPS'],
      ['986578788855', 'FedEx', 'FedEx'],
      ['9101026837331000039521', 'USPS（美国邮政）', 'USPS'],
      ['3318810025', 'DHL', 'DHL'],
      ['TBA123456789000', '亚马逊物流', 'Amazon Logistics'],
      ['C11031500001879', 'OnTrac', 'OnTrac'],
      ['SF1234567890123', '顺丰速运', 'SF Express'],
      ['RB123456785GB', '国际邮政', 'International post (UPU S10)'],
    ];
    for (const [id, name, nameEn] of names) expect(carrierOf(id), id).toMatchObject({ name, nameEn, checkDigitOk: true });
  });

  it('a bare run of digits no carrier validates is no carrier', () => {
    expect(carrierOf('986578788856')).toBeNull(); // FedEx's 12 digits with a wrong check digit: just digits
    // USPS's own 20 digits (9x...) are its form even with a wrong check digit; one digit more or before is not.
    expect(carrierOf('91123456789012345678')).toMatchObject({ code: 'usps', checkDigitOk: false });
    for (const id of ['19505511069605048600625', '95055110696050486006251']) expect(carrierOf(id), id).toBeNull();
    // SF Express is SF and 12 or 13 digits, nothing around them.
    for (const id of ['SF12345678901234', 'XSF1234567890123']) expect(carrierOf(id), id).toBeNull();
    expect(carrierOf('0012345678901')).toBeNull();
    expect(carrierOf('')).toBeNull();
    expect(carrierOf('HELLO')).toBeNull();
  });
});

// Near misses (decision 098): a key one edit from another, or sharing its last 10 characters, is
// shown as 可能是… to the clerk and as a hint to the member whose record it may be.
describe('near tracking ids', () => {
  const ups = '1Z999AA10123456784';
  const near: [string, string, string][] = [
    ['a digit mistyped', ups, '1Z999AA10123456785'],
    ['a digit dropped', ups, '1Z999AA1012345678'],
    ['a digit doubled', ups, '1Z999AA101234456784'],
    ['the first character dropped', ups, 'Z999AA10123456784'],
    ['a character added at the end', ups, '1Z999AA101234567840'],
    ['the same last 10 after another prefix', '420221539101026837331000039521', '9101026837331000039521'.replace(/^9101/, '9201')],
    ['shares its last 10, nothing else', 'AB0123456789', 'XYZW0123456789'],
    ['a 10-character id with a prefix added', '3318810025', 'JD3318810025'],
  ];
  const far: [string, string, string][] = [
    ['equal keys', ups, ups],
    ['two characters apart', ups, '1Z999AA10123456700'],
    ['two swapped (two edits)', ups, '1Z999AA10123456748'],
    ['too short to tell', '123456789', '123456788'],
    ['one of them too short', '123456789', '1234567890'],
    ['last 9 shared only', 'AB123456789', 'CD123456789X'.slice(0, 11)],
  ];
  it.each(near)('%s: near', (_, a, b) => {
    expect(isNearTrackingId(a, b)).toBe(true);
    expect(isNearTrackingId(b, a)).toBe(true);
  });
  it('an id is not one edit from itself (the clerk is not offered the id scanned)', () => {
    expect(isOneEditApart(ups, ups)).toBe(false);
  });
  it.each(far)('%s: not near', (_, a, b) => {
    expect(isNearTrackingId(a, b)).toBe(false);
    expect(isNearTrackingId(b, a)).toBe(false);
  });

  const key = fc.stringMatching(/^[0-9A-Z]{10,30}$/);
  const levenshtein = (a: string, b: string) => {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const row = [i];
      for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row;
    }
    return prev[b.length]!;
  };

  it('one edit of a key (insert, delete or substitute anywhere) is near it, and symmetric', () => {
    const edit = fc.record({ kind: fc.constantFrom('insert', 'delete', 'substitute'), at: fc.nat(), ch: fc.constantFrom(...'0123456789AZ') });
    fc.assert(
      fc.property(key, edit, (k, e) => {
        const at = e.at % (k.length + (e.kind === 'insert' ? 1 : 0));
        const other =
          e.kind === 'insert'
            ? k.slice(0, at) + e.ch + k.slice(at)
            : e.kind === 'delete'
              ? k.slice(0, at) + k.slice(at + 1)
              : k.slice(0, at) + e.ch + k.slice(at + 1);
        if (other === k || other.length < NEAR_MIN_LENGTH) return;
        expect(isNearTrackingId(k, other)).toBe(true);
        expect(isNearTrackingId(other, k)).toBe(true);
      }),
    );
  });

  it('agrees with the Levenshtein distance and the shared suffix on any two keys', () => {
    const close = fc
      .tuple(key, fc.stringMatching(/^[0-9A-Z]{0,3}$/), fc.stringMatching(/^[0-9A-Z]{0,3}$/))
      .map(([k, p, q]) => [p + k, q + k.slice(1)] as const);
    fc.assert(
      fc.property(fc.oneof(fc.tuple(key, key), close), ([a, b]) => {
        expect(isOneEditApart(a, b)).toBe(levenshtein(a, b) === 1);
        const expected = a !== b && a.length >= 10 && b.length >= 10 && (levenshtein(a, b) === 1 || a.slice(-10) === b.slice(-10));
        expect(isNearTrackingId(a, b)).toBe(expected);
      }),
    );
  });

  it('says 可能是… with the task (and, for the clerk, the member)', () => {
    expect(nearMissMessages.clerk([{ trackingId: ups, taskDisplayId: '12-1', nickName: '小陈' }])).toBe('可能是 1Z999AA10123456784（任务 12-1，会员 小陈）');
    expect(nearMissMessages.upload('导入成功', [{ trackingId: ups, taskDisplayId: '12-1', nickName: '小陈' }])).toBe(
      '导入成功；可能是 1Z999AA10123456784（任务 12-1）',
    );
    expect(nearMissMessages.member(ups)).toBe('有快递单号相近的包裹已到货：1Z999AA10123456784，请核对您填写的快递单号');
  });
});
