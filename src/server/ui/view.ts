/**
 * What a dashboard view is: a page under `/sandbox/ui`, what it shows, and the forms it posts.
 * The list of views (views.ts) drives the navigation and the routes alike, so a new view is one
 * file and one line there.
 */
import type { Params } from '../dispatch/params.js';
import type { HandlerTable } from '../dispatch/types.js';
import type { FaultBook } from '../faults/book.js';
import type { AppRow } from '../domain/rows.js';
import type { HandlerContextDeps } from '../http/handler-context.js';
import type { PageContext } from '../http/pages.js';
import type { Html } from '../client/page-layout.js';
import type { RequestRecorder } from '../inspector/recorder.js';
import type { Notice, UiSession } from './ui-sessions.js';

/** What the dashboard is built with (start.ts): the seller API's handlers, the request inspector, the clocks. */
export interface DashboardDeps extends Omit<HandlerContextDeps, 'store'> {
  /** The seller API's handlers: the dashboard's seller actions run the very same code. */
  readonly sellerHandlers: HandlerTable;
  readonly recorder: RequestRecorder;
  /** The faults the sandbox injects: the same book as the admin route `/sandbox/faults`. */
  readonly faultBook: FaultBook;
  /** Served over HTTPS: the cookie is Secure. */
  readonly secure: boolean;
}

/** One request to a view or an action of a signed-in browser. */
export interface ViewContext {
  readonly page: PageContext;
  readonly deps: DashboardDeps;
  /** The application the dashboard shows (the sandbox's). */
  readonly app: AppRow;
  readonly session: UiSession;
  /** Query string (a view) or form body (an action). */
  readonly params: Params;
}

/** What a view's GET shows, inside the dashboard's layout. */
export interface ViewBody {
  readonly body: Html;
  /** A script for this view: served inline under a per-response nonce, with `connect-src 'self'`. */
  readonly script?: string;
}

export interface ViewAction {
  /** The form's path under the view's: `create` → `POST /sandbox/ui/licenses/create`. */
  readonly name: string;
  /** Runs the action; its notice is shown on the view the browser is sent back to. */
  readonly run: (ctx: ViewContext) => Notice | Promise<Notice>;
}

export interface DashboardView {
  /** Also the last path segment: `licenses` → `/sandbox/ui/licenses`; '' is the dashboard's home. */
  readonly id: string;
  /** Its name in the navigation and its heading. */
  readonly label: string;
  readonly show: (ctx: ViewContext) => ViewBody;
  readonly actions?: readonly ViewAction[];
}
