import { createFileRoute } from '@tanstack/react-router';
import { UploadPage } from '../../../../features/tasks/upload-page';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_user/user/upload')({
  staticData: { title: zh.titles.userUpload },
  component: UploadPage,
});
