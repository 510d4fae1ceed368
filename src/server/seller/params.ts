/**
 * The seller API's parameter checks, driven by the catalog (src/api/seller-catalog/): the CLI
 * builds its flags from the same entries, so what the CLI sends and what the sandbox accepts
 * cannot drift apart. Runs before every handler; a handler sees only requests whose required
 * parameters are present and whose numbers, flags, choices and lengths are well-formed.
 *
 * Stricter than the real server on purpose: E quietly turns a non-numeric `amount` or `level`
 * into 1; the sandbox refuses it, so a tester's script learns about the typo. Booleans are as
 * lenient as E's in what they accept (boolean-words.ts), and refuse what E would misread.
 */
import { wireParamsForType, type ParamSpec } from '../../api/seller-catalog/index.js';
import type { Params } from '../dispatch/params.js';
import { isSensitiveName } from '../../api/redact.js';
import { shownSecret } from '../domain/shown.js';
import { because, fail, failWithStatus } from '../dispatch/reply.js';
import type { Reply } from '../dispatch/types.js';
import { BOOLEAN_WORDS, parseBooleanWord } from './boolean-words.js';
import { paramMessages } from './param-messages.js';
import { rangeProblem } from './param-ranges.js';

/** Largest magnitude accepted for a fractional number (days: ×86400 stays an exact integer). */
const MAX_NUMBER = 1e9;
/** Largest magnitude accepted for a whole number (seconds, counts). */
const MAX_INTEGER = 1e12;

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Why a present value was refused, worded generically; undefined when it is fine. */
function typeProblem(spec: ParamSpec, value: string): string | undefined {
  const wire = spec.wire;
  switch (spec.type) {
    case 'string':
      return undefined;
    case 'integer': {
      if (!INTEGER.test(value)) return `Invalid parameter: ${wire} must be a whole number`;
      return Math.abs(Number(value)) > MAX_INTEGER ? `Invalid parameter: ${wire} is out of range` : undefined;
    }
    case 'number': {
      if (!DECIMAL.test(value)) return `Invalid parameter: ${wire} must be a number`;
      const n = Number(value);
      return Number.isFinite(n) && Math.abs(n) <= MAX_NUMBER ? undefined : `Invalid parameter: ${wire} is out of range`;
    }
    case 'bool01':
    case 'booltext':
      return parseBooleanWord(value) === undefined ? `Invalid parameter: ${wire} must be ${BOOLEAN_WORDS}` : undefined;
    case 'enum': {
      const choices = spec.choices ?? [];
      return choices.includes(value) ? undefined : `Invalid parameter: ${wire} must be one of ${choices.join(', ')}`;
    }
  }
}

/** The value under the wire name, or under one of the aliases some clients send. */
function valueOf(params: Params, spec: ParamSpec): { value: string | undefined; alias: boolean } {
  const value = params.get(spec.wire);
  if (value !== undefined) return { value, alias: false };
  for (const alias of spec.wireAliases ?? []) {
    const aliased = params.get(alias);
    if (aliased !== undefined) return { value: aliased, alias: true };
  }
  return { value: undefined, alias: false };
}

export type ParamCheck = { readonly params: Params } | { readonly reply: Reply };

/**
 * Checks `params` against the catalog's parameters of `type`, in catalog order; the first
 * problem decides the answer (the page's message for that operation where it gives one).
 * On success returns the params to hand to the handler: a value sent under a recorded alias is
 * copied to its wire name, so handlers read one name only.
 */
export function checkSellerParams(type: string, params: Params): ParamCheck {
  return checkParamList(type, wireParamsForType(type), params);
}

/** The check itself, over any list of parameter specs (`type` picks the page's messages). */
export function checkParamList(type: string, specs: readonly ParamSpec[], params: Params): ParamCheck {
  const overrides: Record<string, string> = {};
  const refuse = (reply: Reply, reason: string): ParamCheck => ({ reply: because(reply, `${type}: ${reason}`) });
  for (const spec of specs) {
    const messages = paramMessages(type, spec.wire);
    const { value, alias } = valueOf(params, spec);
    if (value === undefined) {
      if (!spec.required) continue;
      const missing = messages.missing ?? `Missing parameter: ${spec.wire}`;
      return refuse(messages.missingStatus === undefined ? fail(missing) : failWithStatus(messages.missingStatus, missing), `the required parameter ${spec.wire} was not sent`);
    }
    if (spec.maxLength !== undefined && [...value].length > spec.maxLength) {
      const why = `${spec.wire} is ${[...value].length} characters; at most ${spec.maxLength}`;
      return refuse(fail(messages.tooLong ?? `Invalid parameter: ${spec.wire} must be at most ${spec.maxLength} characters`), why);
    }
    const problem = typeProblem(spec, value);
    if (problem !== undefined) return refuse(fail(messages.invalid ?? problem), `${problem.replace(/^Invalid parameter: /, '')}; it was ${shownValue(spec.wire, value)}`);
    const outOfRange = rangeProblem(type, spec.wire, value);
    if (outOfRange !== undefined) return refuse(fail(outOfRange), `${spec.wire} ${shownValue(spec.wire, value)} is out of the accepted range`);
    if (alias) overrides[spec.wire] = value;
  }
  return { params: Object.keys(overrides).length > 0 ? params.with(overrides) : params };
}

/** A refused value as a reason quotes it: secrets masked, long values cut. */
function shownValue(wire: string, value: string): string {
  if (isSensitiveName(wire)) return shownSecret(wire, value);
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

/** A value the check has validated as a number (`number` or `integer`); `fallback` when absent. */
export function numberParam(params: Params, wire: string, fallback: number): number {
  const value = params.get(wire);
  return value === undefined ? fallback : Number(value);
}

/** A boolean parameter the check has validated (boolean-words.ts); absent gives `fallback`. */
export function flagParam(params: Params, wire: string, fallback = false): boolean {
  const value = params.get(wire);
  return value === undefined ? fallback : parseBooleanWord(value) === true;
}

/** Days as sent (fractions allowed) → whole seconds. */
export function daysToSeconds(days: number): number {
  return Math.round(days * 86_400);
}

/** Whether the caller asked for a plain-text answer (exactly `format=text`, as E). */
export function wantsText(params: Params): boolean {
  return params.get('format') === 'text';
}
