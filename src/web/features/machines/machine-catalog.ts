// The machines the viewer draws: every machine of machines/, each with the modules that state its
// rules (the machine file and its statuses list), read as namespaces so that state-uses.ts can ask
// which exports name which state. A machine added to machines/ without an entry here fails
// tests/web/machines/machines-page.test.tsx (it compares this list with the files).
import * as board from '../../../../machines/board.machine';
import * as claim from '../../../../machines/claim.machine';
import * as payment from '../../../../machines/payment.machine';
import * as purchasedRecord from '../../../../machines/purchased-record.machine';
import * as paymentStatuses from '../../../../machines/payment.statuses';
import * as scan from '../../../../machines/scan.machine';
import * as scan2 from '../../../../machines/scan2.machine';
import * as scanRecord from '../../../../machines/scan-record.machine';
import * as scanRecordStatuses from '../../../../machines/scan-record.statuses';
import * as session from '../../../../machines/session.machine';
import * as task from '../../../../machines/task.machine';
import * as taskStatuses from '../../../../machines/task.statuses';
import * as withdraw from '../../../../machines/withdraw.machine';
import * as withdrawOrder from '../../../../machines/withdraw-order.machine';
import * as withdrawStatuses from '../../../../machines/withdraw.statuses';
import type { AnyStateMachine } from 'xstate';

export interface CatalogEntry {
  machine: AnyStateMachine;
  /** Module path (as scripts/machine-uses.ts names it) -> the module's exports. */
  modules: Record<string, Record<string, unknown>>;
}

export const MACHINE_CATALOG: CatalogEntry[] = [
  { machine: task.taskMachine, modules: { 'machines/task.machine.ts': task, 'machines/task.statuses.ts': taskStatuses } },
  { machine: claim.claimMachine, modules: { 'machines/claim.machine.ts': claim } },
  { machine: board.boardMachine, modules: { 'machines/board.machine.ts': board } },
  { machine: scan.scanMachine, modules: { 'machines/scan.machine.ts': scan } },
  { machine: scan2.scan2Machine, modules: { 'machines/scan2.machine.ts': scan2 } },
  { machine: scanRecord.scanRecordMachine, modules: { 'machines/scan-record.machine.ts': scanRecord, 'machines/scan-record.statuses.ts': scanRecordStatuses } },
  { machine: payment.paymentMachine, modules: { 'machines/payment.machine.ts': payment, 'machines/payment.statuses.ts': paymentStatuses } },
  { machine: withdraw.withdrawMachine, modules: { 'machines/withdraw.machine.ts': withdraw, 'machines/withdraw.statuses.ts': withdrawStatuses } },
  { machine: withdrawOrder.withdrawOrderMachine, modules: { 'machines/withdraw-order.machine.ts': withdrawOrder } },
  { machine: purchasedRecord.purchasedRecordMachine, modules: { 'machines/purchased-record.machine.ts': purchasedRecord } },
  { machine: session.sessionMachine, modules: { 'machines/session.machine.ts': session } },
];
