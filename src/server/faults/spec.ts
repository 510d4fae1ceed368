/**
 * What a fault is, as a tester asks for it (`kactl sandbox fault add`, `POST /sandbox/faults`, a
 * flows `fault:` step): its kind, its argument, which requests it hits, and how often. Pure and
 * light, so the command line checks its input with the same rules the sandbox does without
 * loading the sandbox (the `--type` check against the API catalogs is `checked-spec.ts`).
 *
 * Every kind is one record of FAULT_KIND_INFO: its argument, the APIs it can hit, what it needs
 * of the answer, and the words help and the request log use for it. The checks, the help, the
 * dashboard's form and the fault stage read the record; a new kind is a record here and its
 * transform in transform.ts (which TypeScript asks for). The kinds marked `fakeServer` are the
 * hostile answers of `kactl sandbox audit` (a fake server's, a doctored one's, recorded or
 * misdated ones), each made in its own file beside this one.
 */

/** The parts of the sandbox a fault can hit; the admin routes never are (a fault could not be cleared). */
export const FAULT_APIS = ['1.3', '1.2', 'seller', 'page'] as const;
export type FaultApi = (typeof FAULT_APIS)[number];

/** How a faulted answer reaches the client, when it is not as a whole answer. */
export type FaultDelivery = 'reset' | 'truncated';

/** The argument a kind takes: its name in help, whether it must be given, and its range. */
export interface KindArgument {
  readonly name: 'DURATION' | 'CODE';
  readonly required: boolean;
  /** Smallest and largest value: milliseconds for a DURATION, the status for a CODE. */
  readonly min: number;
  readonly max: number;
  /** The refusal's examples (`500ms, 30s, 10m or 2h`), and what follows them (`(at most 10m)`). */
  readonly examples: string;
  readonly limitNote?: string;
}

export interface FaultKindInfo {
  readonly arg?: KindArgument;
  /** The APIs it can hit; `apisWhy` says why, when that is fewer than all. */
  readonly apis: readonly FaultApi[];
  readonly apisWhy?: string;
  /** It needs the whole body (a signature, a cut): a download piped from a stream is never hit. */
  readonly needsBody?: boolean;
  /**
   * It sends an earlier answer to the same client: `last` the last one (its session), `of-type`
   * the last of the request's API type (an earlier run's); answers are remembered while one is held.
   */
  readonly needsPrevious?: 'last' | 'of-type';
  /** An answer a fake or doctored server makes up (help lists these apart). */
  readonly fakeServer?: true;
  /** The answer does not reach the client whole. */
  readonly delivery?: FaultDelivery;
  /** What the client gets, for `fault add --help` (wrapped under the kind there). */
  readonly help: string;
  /** What the client got, for the request log's reason (`fault` and its argument in hand). */
  readonly did: (arg: string | undefined) => string;
}

const CLIENT_APIS: readonly FaultApi[] = ['1.3', '1.2'];
const SIGNED = 'changes signed client answers';
/** A delay longer than this would outlast every client's timeout; it is refused as a mistake. */
export const MAX_DELAY_MS = 10 * 60 * 1000;
/** A stale timestamp this far back at most (100 years), as the clock's offset. */
const MAX_STALE_MS = 100 * 365 * 86_400_000;

const DURATION = { name: 'DURATION', min: 1, examples: '500ms, 30s, 10m or 2h' } as const;
const CODE = { name: 'CODE', min: 100, max: 599, examples: '503' } as const;

export const FAULT_KIND_INFO = {
  'forge-signature': {
    apis: CLIENT_APIS,
    apisWhy: SIGNED,
    needsBody: true,
    help: 'a valid-looking signature by another key (1.3 Ed25519, 1.2 HMAC)',
    did: () => 'the answer signed by another key',
  },
  'stale-timestamp': {
    arg: { ...DURATION, required: true, max: MAX_STALE_MS },
    apis: ['1.3'],
    apisWhy: 'needs a signature timestamp, which only 1.3 answers carry',
    needsBody: true,
    help: 'signed by the sandbox, with a timestamp DUR old (1.3)',
    did: (arg) => `the answer signed again with a timestamp ${arg ?? ''} old`,
  },
  replay: {
    apis: CLIENT_APIS,
    apisWhy: SIGNED,
    needsBody: true,
    needsPrevious: 'last',
    help: 'the last signed answer to this client (its session) since the fault was added, byte for byte',
    did: () => 'the previous signed answer to this client, sent again',
  },
  tamper: {
    apis: CLIENT_APIS,
    apisWhy: SIGNED,
    needsBody: true,
    help: 'success flipped after signing; the signature left as it was',
    did: () => 'success flipped after signing',
  },
  status: {
    arg: { ...CODE, required: true },
    apis: FAULT_APIS,
    help: 'the same answer with another HTTP status',
    did: (arg) => `the answer with HTTP ${arg ?? ''}`,
  },
  html: {
    arg: { ...CODE, required: false },
    apis: FAULT_APIS,
    help: "a proxy's HTML error page (502 unless CODE)",
    did: (arg) => `a proxy's HTML error page (${arg ?? '502'}) in place of the answer`,
  },
  text: {
    apis: FAULT_APIS,
    help: 'the bare KeyAuth_Invalid',
    did: () => 'the bare KeyAuth_Invalid in place of the answer',
  },
  delay: {
    arg: { ...DURATION, required: true, max: MAX_DELAY_MS, limitNote: ' (at most 10m)' },
    apis: FAULT_APIS,
    help: 'the answer, DUR late (at most 10m)',
    did: (arg) => `the answer held back ${arg ?? ''}`,
  },
  reset: {
    apis: FAULT_APIS,
    delivery: 'reset',
    help: 'the connection closed before any answer',
    did: () => 'the connection reset before any answer',
  },
  truncate: {
    apis: FAULT_APIS,
    needsBody: true,
    delivery: 'truncated',
    help: 'part of the body, then the connection ends',
    did: () => 'half the body, then the connection closed',
  },
  'rate-limit': {
    // Retry-After is whole seconds.
    arg: { ...DURATION, required: false, min: 1000, max: MAX_STALE_MS, examples: '30s, 10m or 2h' },
    apis: ['1.3', '1.2', 'seller'],
    apisWhy: 'is the answer of an API rate limit, which pages do not have',
    help: "the sandbox's rate-limit answer for that API (Retry-After DUR, else 60s)",
    did: () => "the sandbox's rate-limit answer in place of the answer",
  },
  emulate: {
    apis: CLIENT_APIS,
    apisWhy: SIGNED,
    needsBody: true,
    fakeServer: true,
    help: 'every answer a success (a refusal too), signed by another key',
    did: () => "a fake server's success, signed by another key",
  },
  'emulate-secret': {
    apis: ['1.2'],
    apisWhy: 'signs with the app secret, which only 1.2 answers use',
    needsBody: true,
    fakeServer: true,
    help: "the same, HMAC by the app's own secret, as emulators that read it out of the program (1.2)",
    did: () => "a fake server's success, HMAC by the app secret",
  },
  unsigned: {
    apis: CLIENT_APIS,
    apisWhy: SIGNED,
    needsBody: true,
    fakeServer: true,
    help: 'the genuine answer without its signature headers',
    did: () => 'the answer without its signature headers',
  },
  'other-app': {
    apis: ['1.3'],
    apisWhy: 'changes the ownerid a 1.3 answer echoes; 1.2 answers carry none',
    needsBody: true,
    fakeServer: true,
    help: 'a success for another ownerid, signed by the sandbox (1.3)',
    did: () => "a success for another app's ownerid, signed by the sandbox",
  },
  'future-timestamp': {
    arg: { ...DURATION, required: true, max: MAX_STALE_MS },
    apis: ['1.3'],
    apisWhy: 'needs a signature timestamp, which only 1.3 answers carry',
    needsBody: true,
    fakeServer: true,
    help: 'signed by the sandbox, dated DUR ahead (1.3)',
    did: (arg) => `the answer signed again with a timestamp ${arg ?? ''} ahead`,
  },
  'tamper-success': {
    apis: CLIENT_APIS,
    apisWhy: SIGNED,
    needsBody: true,
    fakeServer: true,
    help: 'a refusal made a success after signing (a login: its level raised); the signature left as it was',
    did: () => 'a refusal turned into a success after signing',
  },
  'replay-type': {
    apis: CLIENT_APIS,
    apisWhy: SIGNED,
    needsBody: true,
    needsPrevious: 'of-type',
    fakeServer: true,
    help: "the last signed answer of the same type to this client (an earlier run's login), byte for byte",
    did: () => 'the last answer of its type to this client, sent again',
  },
} as const satisfies Record<string, FaultKindInfo>;

export type FaultKind = keyof typeof FAULT_KIND_INFO;
export const FAULT_KINDS = Object.keys(FAULT_KIND_INFO) as readonly FaultKind[];

/** The record of a kind, as its general type (the table's literal types are for FaultKind only). */
export function kindInfo(kind: FaultKind): FaultKindInfo {
  return FAULT_KIND_INFO[kind];
}

export function isFaultKind(text: string): text is FaultKind {
  return Object.hasOwn(FAULT_KIND_INFO, text);
}

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

/** `"forge-sig"` → ` (did you mean forge-signature?)`; empty when nothing is near. Injected so this file stays light. */
export type Suggest = (word: string, candidates: readonly string[]) => string | undefined;

function near(suggest: Suggest | undefined, word: string, candidates: readonly string[]): string {
  const found = suggest?.(word, candidates);
  return found === undefined ? '' : ` (did you mean ${found}?)`;
}

/** The spec, or one sentence saying what is wrong with the input. `suggest` adds a did-you-mean. */
export function parseFaultSpec(input: FaultInput, suggest?: Suggest): FaultSpec | { error: string } {
  const kind = input.kind?.trim() ?? '';
  if (!isFaultKind(kind)) {
    if (kind === '') return { error: `Name a fault kind: one of ${FAULT_KINDS.join(', ')}` };
    return { error: `Unknown fault kind "${kind.slice(0, 40)}"${near(suggest, kind, FAULT_KINDS)}: use one of ${FAULT_KINDS.join(', ')}` };
  }
  const arg = input.arg?.trim() === '' ? undefined : input.arg?.trim();
  const argError = checkArgument(kind, arg);
  if (argError !== undefined) return { error: argError };
  const apis = list(input.api);
  const apiError = checkApis(kind, apis, suggest);
  if (apiError !== undefined) return { error: apiError };
  const limit = checkLimit(input);
  if ('error' in limit) return limit;
  const types = list(input.type);
  const user = input.user === undefined || input.user === '' ? undefined : input.user;
  return {
    kind,
    ...(arg === undefined ? {} : { arg }),
    ...(types === undefined ? {} : { types }),
    ...(apis === undefined ? {} : { apis: apis as FaultApi[] }),
    ...(user === undefined ? {} : { user }),
    ...limit,
  };
}

function checkApis(kind: FaultKind, apis: readonly string[] | undefined, suggest: Suggest | undefined): string | undefined {
  const unknownApi = apis?.find((api) => !(FAULT_APIS as readonly string[]).includes(api));
  if (unknownApi !== undefined) return `--api must be among ${FAULT_APIS.join(', ')}; got "${unknownApi.slice(0, 40)}"${near(suggest, unknownApi, FAULT_APIS)}`;
  const info = kindInfo(kind);
  if (apis?.some((api) => !info.apis.includes(api as FaultApi))) return `${kind} ${info.apisWhy ?? 'hits fewer APIs'}, so its --api can only be ${oneOf(info.apis)}`;
  return undefined;
}

/** `1.3 or 1.2`, `1.3, 1.2 or seller`. */
function oneOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}

function checkLimit(input: FaultInput): { times?: number; rate?: number } | { error: string } {
  if (input.times !== undefined && input.rate !== undefined) return { error: 'Give --times or --rate, not both' };
  if (input.times !== undefined) {
    const times = /^\d{1,9}$/.test(input.times.trim()) ? Number(input.times.trim()) : NaN;
    return times >= 1 ? { times } : { error: '--times must be a whole number of at least 1' };
  }
  if (input.rate !== undefined) {
    const rate = /^\d*\.?\d+$/.test(input.rate.trim()) ? Number(input.rate.trim()) : NaN;
    return rate > 0 && rate <= 1 ? { rate } : { error: '--rate must be a share above 0 and at most 1, e.g. 0.5' };
  }
  return {};
}

function checkArgument(kind: FaultKind, arg: string | undefined): string | undefined {
  const wants = kindInfo(kind).arg;
  if (wants === undefined) return arg === undefined ? undefined : `${kind} takes no argument; got "${arg.slice(0, 40)}"`;
  if (arg === undefined) return wants.required ? `${kind} needs a ${wants.name}, e.g. ${wants.name === 'CODE' ? '503' : '10m'}` : undefined;
  if (wants.name === 'CODE') return /^[1-5]\d\d$/.test(arg) ? undefined : `${kind} takes an HTTP status from ${wants.min} to ${wants.max}; got "${arg.slice(0, 40)}"`;
  const ms = durationMs(arg);
  if (!(ms >= wants.min && ms <= wants.max)) return `${kind} takes a duration like ${wants.examples}${wants.limitNote ?? ''}; got "${arg.slice(0, 40)}"`;
  return undefined;
}

/** `forge-signature`, `stale-timestamp 10m`, `status 503`: the kind and its argument, as said. */
export function faultLabel(spec: { readonly kind: string; readonly arg?: string | undefined }): string {
  return spec.arg === undefined ? spec.kind : `${spec.kind} ${spec.arg}`;
}

/** `stale-timestamp DUR`, `html [CODE]`: a kind as help shows it, with its argument. */
export function kindUsage(kind: FaultKind): string {
  const arg = kindInfo(kind).arg;
  if (arg === undefined) return kind;
  const name = arg.name === 'DURATION' ? 'DUR' : arg.name;
  return `${kind} ${arg.required ? name : `[${name}]`}`;
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
