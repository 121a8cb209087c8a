import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { ItemListPage } from '../../../../features/catalog/item-list-page';
import { ITEM_LIST_SEARCH_DEFAULTS, itemListSearchSchema } from '../../../../features/catalog/item-list-search';
import { loadItemList } from '../../../../features/catalog/items';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/item-list')({
  staticData: { title: zh.titles.adminItemList },
  validateSearch: itemListSearchSchema,
  search: { middlewares: [stripSearchParams(ITEM_LIST_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadItemList(context.api, deps),
  component: function ItemListRoute() {
    return <ItemListPage search={Route.useSearch()} items={Route.useLoaderData()} />;
  },
});
