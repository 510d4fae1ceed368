/**
 * Making one record of a served request: what the stages learned (http/record-source.ts), as the
 * client saw it, with every secret masked by the one masking rule (src/api/redact.ts, with a
 * short prefix so two sessions can be told apart). The recorder calls this when it writes a batch
 * or sends to a live reader, not on the request's own path (recorder.ts).
 *
 * Secrets: a value sent under a secret name (redact.ts `isSecretName`: the list, and any name
 * like pass, pwd, secret, token, key, code, otp, auth, cred, sig) or one the route declares (the
 * shop hook's `app`) is masked where it was sent, and kept out of the rest of the record: the
 * other values (a password that is also the username, a license key that names its user) and the
 * sentences, the answer's message and the reason. A sentence is kactl's or the app's words with
 * values put in, so a secret is replaced in it only where it cannot be one of those words: inside
 * a value the request sent (or the user it named), or anywhere when it is not a plain word or
 * number (it holds both letters and something else, `hunter2`, `ABCD-1234`). A password `wrong`
 * leaves "wrong password for alice" as it is. URL values lose their user info and query.
 * Client values are capped in length, as the log line caps them.
 */
import { isSecretName, maskValue, MASK, MIN_SECRET_LENGTH, urlWithoutSecrets } from '../../api/redact.js';
import type { RequestDelivery } from '../../api/sandbox-admin.js';
import type { Params } from '../dispatch/params.js';
import { faultLabel, kindInfo, type FaultKind } from '../faults/spec.js';
import type { RecordApi, RequestRecord } from './records.js';

/** Longest client value kept, as the request log line keeps (http/log-line.ts). */
const MAX_VALUE_CHARS = 120;
/** Parameters kept per record; the rest are counted. */
const MAX_PARAMS = 40;
/** Longest parameter name kept. */
const MAX_NAME_CHARS = 60;

/** An answer's outcome in words. Without one, the inspector takes `success` from the status. */
export interface Decision {
  readonly success: boolean;
  /** The answer's `message` (or its text body). */
  readonly message?: string | undefined;
  /** Why, from the rule that decided (Reply.reason). */
  readonly reason?: string | undefined;
  /** The end user the request was about, as it may be shown (a license user's key masked). */
  readonly user?: string | undefined;
  /** Values that must not appear anywhere in the record (a license key used as a username). */
  readonly hidden?: readonly string[] | undefined;
}

/** The fault that changed an answer, as the fault stage held it. */
export interface FaultRef {
  readonly id: number;
  readonly kind: FaultKind;
  readonly arg?: string | undefined;
}

/** What the stages learned of a request: references, made into a record later (makeRecord). */
export interface RecordSource {
  readonly at: number;
  readonly api: RecordApi;
  readonly type: string | undefined;
  readonly method: string;
  /** With page tokens already masked (http/log-line.ts `maskPageToken`). */
  readonly path: string;
  readonly ip: string;
  readonly params: Params | undefined;
  /** Parameters the route declares secret under names the rule does not know (the shop hook's `app`). */
  readonly secretParams?: readonly string[] | undefined;
  /** The status the client got: the faulted answer's; 0 when no answer reached it. */
  readonly status: number;
  /** The sandbox's own decision: the genuine answer's. */
  readonly decision: Decision | undefined;
  readonly durationMs: number;
  readonly delivery?: RequestDelivery | undefined;
  /** The fault that changed the answer, and the body it sent in place of the genuine one (if it did). */
  readonly fault?: FaultRef | undefined;
  readonly sentBody?: Buffer | undefined;
  /** Sent by kactl on its own account (the `X-Kactl-Probe` header). */
  readonly probe?: boolean | undefined;
}

/** The secrets of one request, and how to keep them out of its values and sentences. */
interface Hider {
  /** A value the request sent: every secret in it masked, then cut. */
  readonly value: (text: string) => string;
  /** A sentence: secrets masked only where they cannot be its own words (see the file comment). */
  readonly sentence: (text: string | undefined) => string | null;
}

export function makeRecord(id: number, source: RecordSource): RequestRecord {
  const { decision } = source;
  const sent = sentParams(source.params, source.secretParams);
  const hider = hiderOf(sent, decision);
  const seen = whatTheClientSaw(source);
  return {
    id,
    at: source.at,
    api: source.api,
    type: source.type === undefined ? null : hider.value(source.type),
    method: cut(source.method),
    path: hider.value(source.path),
    ip: source.ip,
    user: decision?.user === undefined ? null : hider.value(decision.user),
    params: maskedParams(sent, source.params?.names().length ?? 0, hider.value),
    status: source.status,
    success: seen.success,
    message: hider.sentence(seen.message),
    reason: hider.sentence(seen.reason),
    durationMs: Math.round(source.durationMs * 100) / 100,
    delivery: source.delivery ?? 'answer',
    fault: source.fault === undefined ? null : `#${source.fault.id} ${faultLabel(source.fault)}`,
    probe: source.probe === true,
  };
}

/** One parameter as sent, and whether its value is a secret. */
interface SentParam {
  readonly name: string;
  readonly raw: string;
  readonly secret: boolean;
}

/** The parameters kept (the first MAX_PARAMS), each looked at once. */
function sentParams(params: Params | undefined, secretParams: readonly string[] | undefined): SentParam[] {
  if (params === undefined) return [];
  const names = params.names();
  const kept = names.length > MAX_PARAMS ? names.slice(0, MAX_PARAMS) : names;
  return kept.map((name) => ({ name, raw: params.raw(name) ?? '', secret: isSecretName(name) || (secretParams !== undefined && secretParams.includes(name)) }));
}

/** The success, message and reason as the client got them; a fault's reason says what it did and what the sandbox had answered. */
function whatTheClientSaw(source: RecordSource): { success: boolean | null; message: string | undefined; reason: string | undefined } {
  const { decision, fault } = source;
  const genuine = { success: decision?.success ?? (source.status === 0 ? false : source.status < 400), message: decision?.message, reason: decision?.reason };
  if (fault === undefined) return source.delivery === 'abandoned' ? { success: false, message: undefined, reason: `the client closed the connection before the answer was sent${ownAnswer(genuine)}` } : genuine;
  let did = kindInfo(fault.kind).did(fault.arg);
  if (source.delivery === 'abandoned') did += `; the client closed the connection after ${(source.durationMs / 1000).toFixed(1)} s, before it was sent`;
  const reason = `${did}${ownAnswer(genuine)}`;
  if (source.delivery !== undefined && source.delivery !== 'answer') return { success: false, message: undefined, reason };
  if (source.sentBody === undefined) return { success: genuine.success, message: genuine.message, reason };
  return { ...bodySays(source.sentBody), reason };
}

/** `; the sandbox's own answer: alice logged in` (its reason, else its message). */
function ownAnswer(genuine: { success: boolean | null; message: string | undefined; reason: string | undefined }): string {
  const words = genuine.reason ?? genuine.message;
  return words === undefined ? '' : `; the sandbox's own answer: ${words}`;
}

/** A body a fault sent: its JSON `success` and `message`, else a failure and its text (an HTML page's title). */
function bodySays(body: Buffer): { success: boolean; message: string | undefined } {
  const text = body.toString('utf8');
  try {
    const parsed = JSON.parse(text) as { success?: unknown; message?: unknown } | null;
    if (parsed !== null && typeof parsed === 'object') return { success: parsed.success === true, message: typeof parsed.message === 'string' ? parsed.message : undefined };
  } catch {
    // Not JSON: a proxy's page or a bare word, below.
  }
  const title = /<title>([^<]*)<\/title>/i.exec(text)?.[1];
  return { success: false, message: cut(title ?? text.trim()) };
}

/** The values sent under secret names (long enough to look for) and the hidden ones, and what the request put into sentences. */
function hiderOf(sent: readonly SentParam[], decision: Decision | undefined): Hider {
  const secrets = decision?.hidden === undefined ? [] : decision.hidden.filter((value) => value.length >= MIN_SECRET_LENGTH);
  for (const param of sent) if (param.secret && param.raw.length >= MIN_SECRET_LENGTH) secrets.push(param.raw);
  if (secrets.length === 0) return { value: cut, sentence: (text) => (text === undefined ? null : text) };
  // Longest first, so a secret that holds another goes whole.
  secrets.sort((a, b) => b.length - a.length);
  const value = (text: string): string => cut(replaceAll(text, secrets));
  let sentenceRule: SentenceRule | undefined;
  const sentence = (text: string | undefined): string | null => {
    if (text === undefined) return null;
    // Most sentences hold no secret at all: nothing to work out.
    if (!secrets.some((secret) => text.includes(secret))) return text;
    sentenceRule ??= sentenceRuleOf(sent, decision, secrets);
    return hideInSentence(text, secrets, sentenceRule);
  };
  return { value, sentence };
}

/** Where a sentence may hold a secret: the values the request put in it, longest first, and the secrets no word could be. */
interface SentenceRule {
  readonly putIn: readonly string[];
  readonly anywhere: readonly string[];
}

function sentenceRuleOf(sent: readonly SentParam[], decision: Decision | undefined, secrets: readonly string[]): SentenceRule {
  const putIn = decision?.hidden === undefined ? [] : decision.hidden.filter((value) => value.length >= MIN_SECRET_LENGTH);
  if (decision?.user !== undefined) putIn.push(decision.user);
  for (const param of sent) if (!param.secret && param.raw.length >= MIN_SECRET_LENGTH) putIn.push(param.raw);
  putIn.sort((a, b) => b.length - a.length);
  return { putIn, anywhere: secrets.filter(unlikeAnyWord) };
}

/** `text` with each secret (longest first) replaced by `***`. */
function replaceAll(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
  return out;
}

/** Not a plain word or number: it holds a letter and something that is not one. */
function unlikeAnyWord(secret: string): boolean {
  return /\p{L}/u.test(secret) && /[^\p{L}]/u.test(secret);
}

/** A sentence with the secrets masked inside the values put into it, and anywhere when they cannot be words of it. */
function hideInSentence(text: string, secrets: readonly string[], rule: SentenceRule): string {
  let out = text;
  for (const value of rule.putIn) {
    if (!out.includes(value)) continue;
    const masked = replaceAll(value, secrets);
    if (masked !== value) out = out.split(value).join(masked);
  }
  return replaceAll(out, rule.anywhere);
}

/** The parameters as sent: secret ones masked, URLs without user info and query, the others through `value` (secrets hidden, cut). */
function maskedParams(sent: readonly SentParam[], total: number, value: (text: string) => string): Record<string, string> {
  const masked: Record<string, string> = {};
  for (const { name, raw, secret } of sent) {
    const shown = secret ? maskValue(isSecretName(name) ? name : 'secret', raw, { shortPrefix: true }) : value(raw.includes('://') ? urlWithoutSecrets(raw) : raw);
    const key = name.length > MAX_NAME_CHARS ? name.slice(0, MAX_NAME_CHARS) : name;
    // A parameter named __proto__ is kept as one, not taken as the object's prototype.
    if (key === '__proto__') Object.defineProperty(masked, key, { value: shown, enumerable: true, writable: true, configurable: true });
    else masked[key] = shown;
  }
  if (total > MAX_PARAMS) masked['…'] = `${total - MAX_PARAMS} more parameters`;
  return masked;
}

function cut(value: string): string {
  return value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}…(${value.length} chars)` : value;
}
