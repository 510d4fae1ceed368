/**
 * What a fault is, as a tester asks for it (`kactl sandbox fault add`, `POST /sandbox/faults`, a
 * flows `fault:` step): its kind, its argument, which requests it hits, and how often. Pure, so the
 * command line checks its input with the same rules the sandbox does.
 */

/**
 * The hostile answers of `kactl sandbox audit`, each in its own file beside this one: a fake
 * server's (emulate, emulate-secret, other-app), a doctored one (unsigned, tamper-success) and
 * recorded or misdated ones (replay-type, future-timestamp). All change signed client answers.
 */
const FAKE_SERVER_KINDS = ['emulate', 'emulate-secret', 'unsigned', 'other-app', 'future-timestamp', 'tamper-success', 'replay-type'] as const;

export const FAULT_KINDS = [
  'forge-signature',
  'stale-timestamp',
  'replay',
  'tamper',
  'status',
  'html',
  'text',
  'delay',
  'reset',
  'truncate',
  'rate-limit',
  ...FAKE_SERVER_KINDS,
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Kinds that change a signed client answer (1.3 or 1.2): they hit only the client APIs. */
export const SIGNATURE_KINDS: ReadonlySet<FaultKind> = new Set(['forge-signature', 'stale-timestamp', 'replay', 'tamper', ...FAKE_SERVER_KINDS]);

/** Kinds that hit one client API only, and why (the sentence a wrong --api gets). */
export const ONE_API_KINDS: Readonly<Partial<Record<FaultKind, { readonly api: '1.3' | '1.2'; readonly why: string }>>> = {
  'stale-timestamp': { api: '1.3', why: 'stale-timestamp needs a signature timestamp, which only 1.3 answers carry: use --api 1.3' },
  'future-timestamp': { api: '1.3', why: 'future-timestamp needs a signature timestamp, which only 1.3 answers carry: use --api 1.3' },
  'other-app': { api: '1.3', why: 'other-app changes the ownerid a 1.3 answer echoes; 1.2 answers carry none: use --api 1.3' },
  'emulate-secret': { api: '1.2', why: 'emulate-secret signs with the app secret, which only 1.2 answers use: use --api 1.2' },
};

/** The parts of the sandbox a fault can hit; the admin routes never are (a fault could not be cleared). */
export const FAULT_APIS = ['1.3', '1.2', 'seller', 'page'] as const;
export type FaultApi = (typeof FAULT_APIS)[number];

/** A delay longer than this would outlast every client's timeout; it is refused as a mistake. */
export const MAX_DELAY_MS = 10 * 60 * 1000;
/** A stale timestamp this far back at most (100 years), as the clock's offset. */
const MAX_STALE_MS = 100 * 365 * 86_400_000;

/** The argument each kind takes: required, optional or none, and what it is called in help. */
export const KIND_ARGUMENTS: Readonly<Record<FaultKind, { readonly arg: 'DURATION' | 'CODE' | undefined; readonly required: boolean }>> = {
  'forge-signature': { arg: undefined, required: false },
  'stale-timestamp': { arg: 'DURATION', required: true },
  replay: { arg: undefined, required: false },
  tamper: { arg: undefined, required: false },
  status: { arg: 'CODE', required: true },
  html: { arg: 'CODE', required: false },
  text: { arg: undefined, required: false },
  delay: { arg: 'DURATION', required: true },
  reset: { arg: undefined, required: false },
  truncate: { arg: undefined, required: false },
  'rate-limit': { arg: 'DURATION', required: false },
  emulate: { arg: undefined, required: false },
  'emulate-secret': { arg: undefined, required: false },
  unsigned: { arg: undefined, required: false },
  'other-app': { arg: undefined, required: false },
  'future-timestamp': { arg: 'DURATION', required: true },
  'tamper-success': { arg: undefined, required: false },
  'replay-type': { arg: undefined, required: false },
};

export interface FaultSpec {
  readonly kind: FaultKind;
  /** The argument as given (`10m`, `503`); undefined when the kind takes none. */
  readonly arg?: string | undefined;
  /** Only these API types (client or seller `type`); undefined: any. */
  readonly types?: readonly string[] | undefined;
  readonly apis?: readonly FaultApi[] | undefined;
  /** Only requests about this end user (as `kactl sandbox logs --user` names them). */
  readonly user?: string | undefined;
  /** Fire this many times, then stop. */
  readonly times?: number | undefined;
  /** Fire on this share of the matching requests (0 < rate ≤ 1). */
  readonly rate?: number | undefined;
}

/** What a tester sends, as text (form fields, flag values). */
export interface FaultInput {
  readonly kind?: string | undefined;
  readonly arg?: string | undefined;
  readonly type?: string | undefined;
  readonly api?: string | undefined;
  readonly user?: string | undefined;
  readonly times?: string | undefined;
  readonly rate?: string | undefined;
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `500ms`, `2s`, `10m`, `1h`, `7d`, or bare seconds; NaN when it is none of these. */
export function durationMs(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return NaN;
  return Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 's']!);
}

function list(text: string | undefined): string[] | undefined {
  const items = text?.split(',').map((item) => item.trim()).filter((item) => item !== '');
  return items === undefined || items.length === 0 ? undefined : items;
}

/** The spec, or one sentence saying what is wrong with the input. */
export function parseFaultSpec(input: FaultInput): FaultSpec | { error: string } {
  const kind = input.kind?.trim() ?? '';
  if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
    return { error: kind === '' ? `Name a fault kind: one of ${FAULT_KINDS.join(', ')}` : `Unknown fault kind "${kind.slice(0, 40)}": use one of ${FAULT_KINDS.join(', ')}` };
  }
  const faultKind = kind as FaultKind;
  const arg = input.arg?.trim() === '' ? undefined : input.arg?.trim();
  const argError = checkArgument(faultKind, arg);
  if (argError !== undefined) return { error: argError };
  const types = list(input.type);
  const apis = list(input.api);
  const unknownApi = apis?.find((api) => !(FAULT_APIS as readonly string[]).includes(api));
  if (unknownApi !== undefined) return { error: `--api must be among ${FAULT_APIS.join(', ')}; got "${unknownApi.slice(0, 40)}"` };
  if (SIGNATURE_KINDS.has(faultKind) && apis?.some((api) => api !== '1.3' && api !== '1.2')) {
    return { error: `${faultKind} changes signed client answers, so its --api can only be 1.3 or 1.2` };
  }
  const oneApi = ONE_API_KINDS[faultKind];
  if (oneApi !== undefined && apis?.some((api) => api !== oneApi.api)) return { error: oneApi.why };
  if (input.times !== undefined && input.rate !== undefined) return { error: 'Give --times or --rate, not both' };
  let times: number | undefined;
  if (input.times !== undefined) {
    times = /^\d{1,9}$/.test(input.times.trim()) ? Number(input.times.trim()) : NaN;
    if (!(times >= 1)) return { error: '--times must be a whole number of at least 1' };
  }
  let rate: number | undefined;
  if (input.rate !== undefined) {
    rate = /^\d*\.?\d+$/.test(input.rate.trim()) ? Number(input.rate.trim()) : NaN;
    if (!(rate > 0 && rate <= 1)) return { error: '--rate must be a share above 0 and at most 1, e.g. 0.5' };
  }
  const user = input.user === undefined || input.user === '' ? undefined : input.user;
  return {
    kind: faultKind,
    ...(arg === undefined ? {} : { arg }),
    ...(types === undefined ? {} : { types }),
    ...(apis === undefined ? {} : { apis: apis as FaultApi[] }),
    ...(user === undefined ? {} : { user }),
    ...(times === undefined ? {} : { times }),
    ...(rate === undefined ? {} : { rate }),
  };
}

function checkArgument(kind: FaultKind, arg: string | undefined): string | undefined {
  const wants = KIND_ARGUMENTS[kind];
  if (wants.arg === undefined) return arg === undefined ? undefined : `${kind} takes no argument; got "${arg.slice(0, 40)}"`;
  if (arg === undefined) return wants.required ? `${kind} needs a ${wants.arg}, e.g. ${wants.arg === 'CODE' ? '503' : '10m'}` : undefined;
  if (wants.arg === 'CODE') return /^[1-5]\d\d$/.test(arg) ? undefined : `${kind} takes an HTTP status from 100 to 599; got "${arg.slice(0, 40)}"`;
  const ms = durationMs(arg);
  const max = kind === 'delay' ? MAX_DELAY_MS : MAX_STALE_MS;
  // Retry-After is whole seconds.
  const min = kind === 'rate-limit' ? 1000 : 1;
  if (!(ms >= min && ms <= max)) return `${kind} takes a duration like ${kind === 'rate-limit' ? '30s, 10m' : '500ms, 30s, 10m'} or 2h${kind === 'delay' ? ' (at most 10m)' : ''}; got "${arg.slice(0, 40)}"`;
  return undefined;
}

/** `forge-signature`, `stale-timestamp 10m`, `status 503`: the kind and its argument, as said. */
export function faultLabel(spec: { readonly kind: string; readonly arg?: string | undefined }): string {
  return spec.arg === undefined ? spec.kind : `${spec.kind} ${spec.arg}`;
}

/** The filters and limit of a fault, as the admin route sends them (null) or the book holds them (undefined). */
export interface FaultFilters {
  readonly types?: readonly string[] | null | undefined;
  readonly apis?: readonly string[] | null | undefined;
  readonly user?: string | null | undefined;
  readonly times?: number | null | undefined;
  readonly rate?: number | null | undefined;
}

/** `type=login api=1.3 user=alice times=3`: a fault's filters and limit in a few words (`fault list`, the dashboard). */
export function describeFilters(fault: FaultFilters): string {
  const { types, apis, user, times, rate } = { ...fault };
  const parts = [
    types ? `type=${types.join(',')}` : undefined,
    apis ? `api=${apis.join(',')}` : undefined,
    typeof user === 'string' ? `user=${user}` : undefined,
    typeof times === 'number' ? `times=${times}` : undefined,
    typeof rate === 'number' ? `rate=${rate}` : undefined,
  ].filter((part): part is string => part !== undefined);
  return parts.length === 0 ? 'every request' : parts.join(' ');
}
