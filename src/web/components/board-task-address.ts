// A board task's address as people read it: the fixed code a task without an address of its own
// carries (DEFAULT_BOARD_TASK_ADDRESS, an English word on the wire) reads 默认地址; any other
// address as it was typed. Shared: the admin's board task table and the member's board pages show it.
import { DEFAULT_BOARD_TASK_ADDRESS } from '../../api/constants';
import { zh } from '../i18n/zh';

export function boardTaskAddressText(address: string): string {
  return address === DEFAULT_BOARD_TASK_ADDRESS ? zh.boards.boardTask.defaultAddress : address;
}
