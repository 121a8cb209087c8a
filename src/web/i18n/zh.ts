// Every Chinese string of the web app (the UI kit keeps its few generic ones in
// components/ui/ui-text.ts): the app frame's (zh-app.ts) and each screen area's catalog. Messages
// with parameters are functions. Exact SPEC strings are marked.
import { zhApp } from './zh-app';
import { peopleText } from './zh-people';
import { catalogText } from './zh-catalog';
import { boardsText } from './zh-boards';
import { memberBoardsText } from './zh-member-boards';
import { tasksText } from './zh-tasks';
import { uploadsText } from './zh-uploads';
import { adminTasksText } from './zh-admin-tasks';
import { auditText } from './zh-audit';
import { trackingText } from './zh-tracking';
import { scanText } from './zh-scan';
import { paymentsText, statisticsText } from './zh-payments';
import { bankCardsText, withdrawText } from './zh-withdraw';
import { homeText } from './zh-home';
import { memberHomeText } from './zh-member-home';
import { missingText } from './zh-missing';
import { unknownText } from './zh-unknown';

export const zh = {
  ...zhApp,

  people: peopleText,
  catalog: catalogText,
  boards: boardsText,
  memberBoards: memberBoardsText,
  tasks: tasksText,
  uploads: uploadsText,
  adminTasks: adminTasksText,
  audit: auditText,
  tracking: trackingText,
  scan: scanText,
  payments: paymentsText,
  statistics: statisticsText,
  bankCards: bankCardsText,
  withdraw: withdrawText,
  home: homeText,
  memberHome: memberHomeText,
  missing: missingText,
  unknown: unknownText,
} as const;
