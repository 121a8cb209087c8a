// Items are the catalogue every board task, claim and scanned parcel points at. The UPC is what the
// warehouse scanner reads and what matching compares, so it is indexed but deliberately NOT unique
// (the scan screen offers "a product select filtered by upc": several catalogue entries may share a
// code) and nullable (the item form makes upc and url optional; null means "not known yet", never a
// wildcard for matching). price is optional, in cents, and exists only so the simpler board-task form
// can take "the item's price and url when price is empty". Items are closed, never deleted, because
// tasks and scans keep referring to them; the item list's "sizes" dropdown is a page size, not data.
import { sql } from 'drizzle-orm';
import { check, index, pgEnum, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { cents } from './cents';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const itemStatus = pgEnum('item_status', ['open', 'close']);

export const items = pgTable(
  'items',
  {
    id: serial('id').primaryKey(),
    itemName: text('item_name').notNull(),
    upc: text('upc'),
    url: text('url').notNull().default(''),
    status: itemStatus('status').notNull().default('open'),
    /** The retailer's product id (searched with productIdLike). */
    productId: text('product_id').notNull(),
    /** Cents; optional reference price used as the default of a board task's price. */
    price: cents('price'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at')
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    index('items_upc_idx').on(t.upc),
    index('items_product_id_idx').on(t.productId),
    index('items_status_created_idx').on(t.status, t.createdAt),
    index('items_created_at_idx').on(t.createdAt),
    check('items_price_nonneg', sql`${t.price} >= 0`),
  ],
);
