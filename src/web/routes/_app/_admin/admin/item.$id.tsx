import { createFileRoute } from '@tanstack/react-router';
import { ItemPage } from '../../../../features/catalog/item-page';
import { loadItemPage } from '../../../../features/catalog/items';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/item/$id')({
  staticData: { title: zh.titles.adminItem },
  loader: ({ context, params }) => loadItemPage(context.api, params.id),
  component: function ItemRoute() {
    return <ItemPage data={Route.useLoaderData()} />;
  },
});
