// The scan record statuses (SPEC §4 scan record status), the states of
// machines/scan-record.machine.ts, and their words.
// Apart from the machine so that a screen can read them without loading the machine and xstate: the
// web's route search schemas check a status in the address, and the web's word catalog names them,
// both loaded with the first page, the login page included (docs/decisions/130). The machine file
// re-exports them; import from there unless that first load matters.

/** SPEC §4 scan record statuses, in the order of their life. The database enum and the contract's ScanStatus are this list (tests/contract/status-lists.test.ts). */
export const SCAN_STATUSES = ['init', 'scan', 'match', 'unmatch', 'wait2pay', 'payed'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];

/** Each status in words: the screens' badges and filters (web i18n zh.status.scan) and the Excel export show these. */
export const scanStatusLabels = {
  init: '已导入', // imported, not yet seen at the warehouse
  scan: '已扫描',
  match: '已匹配',
  unmatch: '不匹配',
  wait2pay: '待付款',
  payed: '已付款',
} as const satisfies Record<ScanStatus, string>;
