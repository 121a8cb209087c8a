// Item status (SPEC §4: open, close) as the catalog screens show it.
import type { BadgeTone } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import type { ItemStatus } from './items';

export const ITEM_STATUSES: readonly ItemStatus[] = ['open', 'close'];

export const ITEM_STATUS_LABEL: Record<ItemStatus, string> = {
  open: zh.catalog.status.open,
  close: zh.catalog.status.close,
};

export const ITEM_STATUS_TONE: Record<ItemStatus, BadgeTone> = { open: 'success', close: 'neutral' };
