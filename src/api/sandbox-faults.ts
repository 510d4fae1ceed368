/**
 * The sandbox's faults through its admin route `/sandbox/faults` (src/server/README.md,
 * "Faults"): what `kactl sandbox fault` and kactl/sandbox's `faults` call. The sandbox checks a
 * fault's description itself; what it refuses comes back as a UsageError with its sentence.
 */
import { NetworkError } from './errors.js';
import { commaList, sandboxAdminRequest, type AdminTarget } from './sandbox-admin.js';

/** A fault the sandbox holds, as the route sends it. */
export interface SandboxFault {
  readonly id: number;
  /** `forge-signature`, `stale-timestamp`, `replay`, `tamper`, `status`, `html`, `text`, `delay`, `reset`, `truncate`, `rate-limit`. */
  readonly kind: string;
  /** Its DURATION or HTTP status, when the kind takes one. */
  readonly arg: string | null;
  /** Only these API types; null: any. */
  readonly types: string[] | null;
  /** Only these APIs (`1.3`, `1.2`, `seller`, `page`); null: any. */
  readonly apis: string[] | null;
  readonly user: string | null;
  /** Fires this many times in all; null: until cleared. */
  readonly times: number | null;
  /** Fires on this share of the matching requests; null: on each. */
  readonly rate: number | null;
  /** How many answers it changed so far. */
  readonly fired: number;
}

/** What to add: a kind, its argument, which requests it hits and how often. */
export interface FaultRequest {
  readonly kind: string;
  readonly arg?: string | number;
  readonly type?: string | readonly string[];
  readonly api?: string | readonly string[];
  readonly user?: string;
  readonly times?: number;
  readonly rate?: number;
}

const PATH = '/sandbox/faults';

/** The route's form for a fault: only the fields given, lists as the route's comma lists. */
function faultForm(request: FaultRequest): Record<string, string> {
  const form: Record<string, string> = { kind: request.kind };
  if (request.arg !== undefined) form.arg = String(request.arg);
  if (request.type !== undefined) form.type = commaList(request.type);
  if (request.api !== undefined) form.api = commaList(request.api);
  if (request.user !== undefined) form.user = request.user;
  if (request.times !== undefined) form.times = String(request.times);
  if (request.rate !== undefined) form.rate = String(request.rate);
  return form;
}

function faultsOf(body: unknown): SandboxFault[] {
  const faults = (body as { faults?: unknown } | null)?.faults;
  if (!Array.isArray(faults)) throw new NetworkError('The sandbox answered the faults request with an unexpected shape; is it a kactl sandbox new enough to inject faults?');
  return faults as SandboxFault[];
}

/** POST /sandbox/faults: adds a fault; the sandbox's refusal of a wrong one is a UsageError. */
export async function addSandboxFault(target: AdminTarget, request: FaultRequest): Promise<SandboxFault> {
  const added = ((await sandboxAdminRequest(target, { method: 'POST', path: PATH, form: faultForm(request) })) as { fault?: SandboxFault } | null)?.fault;
  if (added === undefined || typeof added.id !== 'number') throw new NetworkError('The sandbox answered the faults request with an unexpected shape.');
  return added;
}

/** GET /sandbox/faults: the faults the sandbox holds, with how often each fired. */
export async function listSandboxFaults(target: AdminTarget): Promise<SandboxFault[]> {
  return faultsOf(await sandboxAdminRequest(target, { method: 'GET', path: PATH }));
}

/** Clears one fault (an unknown id is a UsageError) or, without an id, all of them; how many went and those left. */
export async function clearSandboxFaults(target: AdminTarget, id?: number | string): Promise<{ cleared: number; faults: SandboxFault[] }> {
  const body = await sandboxAdminRequest(target, { method: 'POST', path: PATH, form: { clear: id === undefined ? 'all' : String(id) } });
  const cleared = (body as { cleared?: unknown } | null)?.cleared;
  if (typeof cleared !== 'number') throw new NetworkError('The sandbox answered the faults request with an unexpected shape.');
  return { cleared, faults: faultsOf(body) };
}
