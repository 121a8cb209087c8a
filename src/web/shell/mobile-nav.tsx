// The role's links on a narrow screen (sidebar.tsx says why). Its own chunk, with Headless UI's
// dialog: the header loads it once a user is logged in, so the login page does not.
import { useState, type JSX } from 'react';
import type { RoleType } from '../../../machines/session.machine';
import { Button } from '../components/ui/button';
import { Modal } from '../components/ui/dialog';
import { zhApp as zh } from '../i18n/zh-app';
import { NavLinks } from './sidebar';

/** Below the md breakpoint: a menu button (in the header) that opens the role's links in a dialog, closed again by a choice. */
export function MobileNav({ role }: { role: RoleType }): JSX.Element {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" size="sm" className="md:hidden" aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(true)}>
        <span aria-hidden="true">☰</span>
        {zh.app.menu}
      </Button>
      <Modal open={open} onClose={() => setOpen(false)} title={zh.app.mainNav} size="sm">
        <nav aria-label={zh.app.mainNav}>
          <NavLinks role={role} onNavigate={() => setOpen(false)} />
        </nav>
      </Modal>
    </>
  );
}
