/**
 * The dashboard's views, in the order of its navigation. Each is one entry: its routes
 * (dashboard-pages.ts) and its navigation link come from this list, so a new view is a file in
 * views/ and one line here.
 */
import { appView } from './views/app.js';
import { chatView } from './views/chat.js';
import { clockView } from './views/clock.js';
import { faultsView } from './views/faults.js';
import { filesView } from './views/files.js';
import { licensesView } from './views/licenses.js';
import { outboxView } from './views/outbox.js';
import { requestsView } from './views/requests.js';
import { sessionsView } from './views/sessions.js';
import { usersView } from './views/users.js';
import { variablesView } from './views/variables.js';
import type { DashboardView } from './view.js';

export const DASHBOARD_VIEWS: readonly DashboardView[] = [
  appView,
  licensesView,
  usersView,
  sessionsView,
  variablesView,
  chatView,
  filesView,
  outboxView,
  requestsView,
  clockView,
  faultsView,
];
