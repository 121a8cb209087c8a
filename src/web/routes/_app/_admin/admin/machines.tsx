import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { MachinesPage } from '../../../../features/machines/machines-page';
import { zhApp as zh } from '../../../../i18n/zh-app';

// The offline state charts (decision 132): admin side, like /admin/scan it sits beside; the machine
// shown is in the URL (?machine=scan) so a QA note can link to it.
export const Route = createFileRoute('/_app/_admin/admin/machines')({
  staticData: { title: zh.titles.adminMachines },
  validateSearch: (search: Record<string, unknown>): { machine?: string } => (typeof search.machine === 'string' ? { machine: search.machine } : {}),
  component: function AdminMachinesRoute() {
    const navigate = useNavigate();
    return <MachinesPage machine={Route.useSearch().machine} onMachine={(machine) => void navigate({ to: '/admin/machines', search: { machine } })} />;
  },
});
