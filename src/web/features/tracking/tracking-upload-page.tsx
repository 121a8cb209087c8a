// /admin/upload (SPEC §2, §3, §7 Uploads): the admin's Excel uploads as two tabs of one page.
// - Tracking (default): insert (parcels announced, init), update (counts) and confirm (init -> scan,
//   then matched), with the tracking template.
// - User files (?tab=user): SPEC's second admin upload page (insert, update: the purchased-records
//   upload, which on the admin side may touch any member's task). A tab, not a route: SPEC §2 gives
//   it no path and it is the same task.
// Each tab keeps its file, progress and result while the other is shown (both stay mounted). With
// an upload under way or a result on screen, leaving the page asks first; switching tabs is not leaving.
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import type { JSX, ReactNode } from 'react';
import { ExcelUploadForm, ExcelUploadResult, useExcelUpload, type ExcelUpload, type UploadAction } from '../../components/excel-upload';
import { secondaryLinkClass } from '../../components/ui/link-classes';
import { PageHeader } from '../../components/ui/page';
import { zh } from '../../i18n/zh';
import { PURCHASED_TEMPLATE_URL, PURCHASED_UPLOAD_PATHS, uploadExcel, uploadResultPage, type PurchasedUploadMode } from '../../lib/excel-upload';
import { useLeaveConfirmation } from '../../lib/use-leave-confirmation';
import { useAppContext } from '../../app/app-context';
import { TRACKING_TEMPLATE_URL, TRACKING_UPLOAD_PATHS, type TrackingUploadMode } from './tracking-api';
import { UPLOAD_TABS, type UploadTab } from './tracking-search';

const t = zh.tracking.upload;

const TRACKING_ACTIONS: ReadonlyArray<UploadAction<TrackingUploadMode>> = [
  { mode: 'import', label: t.insert },
  { mode: 'update', label: t.update },
  { mode: 'confirm', label: t.confirm },
];

const USER_ACTIONS: ReadonlyArray<UploadAction<PurchasedUploadMode>> = [
  { mode: 'import', label: t.userImport },
  { mode: 'update', label: t.userUpdate },
];

const TAB_LABEL: Record<UploadTab, string> = { tracking: t.tabTracking, user: t.tabUser };

export interface TrackingUploadPageProps {
  tab: UploadTab;
  onTab: (tab: UploadTab) => void;
}

export function TrackingUploadPage({ tab, onTab }: TrackingUploadPageProps): JSX.Element {
  const { api } = useAppContext();
  const tracking = useExcelUpload<TrackingUploadMode>(
    (mode, file, options) => uploadExcel(api, TRACKING_UPLOAD_PATHS[mode], file, options),
    (resultId, page, size) => uploadResultPage(api, resultId, page, size),
  );
  const userFiles = useExcelUpload<PurchasedUploadMode>(
    (mode, file, options) => uploadExcel(api, PURCHASED_UPLOAD_PATHS[mode], file, options),
    (resultId, page, size) => uploadResultPage(api, resultId, page, size),
  );
  useLeaveConfirmation(tracking.active || userFiles.active);

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={zh.titles.adminUpload} />
      <TabGroup selectedIndex={UPLOAD_TABS.indexOf(tab)} onChange={(index) => onTab(UPLOAD_TABS[index] ?? 'tracking')}>
        <TabList aria-label={t.tabsLabel} className="flex gap-1 border-b border-slate-200">
          {UPLOAD_TABS.map((key) => (
            <Tab
              key={key}
              className="-mb-px rounded-t-md border border-transparent px-4 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-500 data-selected:border-slate-200 data-selected:border-b-white data-selected:bg-white data-selected:text-blue-700"
            >
              {TAB_LABEL[key]}
            </Tab>
          ))}
        </TabList>
        <TabPanels className="pt-4">
          <TabPanel unmount={false}>
            <UploadSection
              intro={t.trackingIntro}
              upload={tracking}
              actions={TRACKING_ACTIONS}
              hint={t.trackingHint}
              title={t.trackingTitle}
              templateUrl={TRACKING_TEMPLATE_URL}
              showUpc
            />
          </TabPanel>
          <TabPanel unmount={false}>
            <UploadSection
              intro={t.userIntro}
              upload={userFiles}
              actions={USER_ACTIONS}
              hint={t.userHint}
              title={t.userTitle}
              templateUrl={PURCHASED_TEMPLATE_URL}
            />
          </TabPanel>
        </TabPanels>
      </TabGroup>
    </div>
  );
}

function UploadSection<M extends string>({
  intro,
  upload,
  actions,
  hint,
  title,
  templateUrl,
  showUpc = false,
}: {
  intro: ReactNode;
  upload: ExcelUpload<M>;
  actions: ReadonlyArray<UploadAction<M>>;
  hint: ReactNode;
  title: ReactNode;
  templateUrl: string;
  showUpc?: boolean;
}): JSX.Element {
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-500">{intro}</p>
      <ExcelUploadForm
        upload={upload}
        actions={actions}
        hint={hint}
        title={title}
        headerActions={
          <a href={templateUrl} download className={secondaryLinkClass}>
            {t.downloadTemplate}
          </a>
        }
      />
      <ExcelUploadResult upload={upload} actions={actions} showUpc={showUpc} />
    </div>
  );
}
