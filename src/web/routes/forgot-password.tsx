import { createFileRoute } from '@tanstack/react-router';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';
import { PublicLayout } from '../shell/page-frame';
import { zhApp as zh } from '../i18n/zh-app';

export const Route = createFileRoute('/forgot-password')({
  staticData: { title: zh.titles.forgotPassword },
  component: () => (
    <PublicLayout>
      <ForgotPasswordPage />
    </PublicLayout>
  ),
});
