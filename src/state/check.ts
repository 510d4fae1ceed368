/**
 * What the schema cannot say about a state body, checked before the first call: durations
 * greater than zero and within what the server stores, a key or a batch (not both), a used key
 * with its user, a user's subscriptions, URLs that parse. Then every call of a plan against the
 * seller catalog (required values, numbers, lengths, choices), so a file is refused whole, with
 * its line, instead of half applied.
 *
 * `apply` refuses a file with a problem (exit 2); `export` and `restore` leave the record out
 * and say why, since the server (or a backup of it) holds something no state file can.
 */
import { findSellerOp } from '../api/seller-catalog/index.js';
import { ownValue } from '../util/own.js';
import { valueProblem } from '../api/seller-param-values.js';
import { durationSeconds } from './load.js';
import { text } from './records.js';
import { LATER } from './actions.js';
import type { Action, Row } from './actions.js';
import { STATE_SCHEMA } from './schema.js';
import type { JsonSchema } from './schema.js';
import { isMoment } from './user-plan.js';
import { canonicalLicense, givenTwice } from './license-plan.js';
import { validate } from './validate.js';
import type { DocPath, Problem } from './validate.js';

/** The longest duration kactl sends: what the sandbox stores (src/server/README.md, "Key durations"), well past any licence. */
export const MAX_DURATION_DAYS = 100_000;

function durationProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (isMoment(value)) return Number.isNaN(Date.parse(value)) ? `"${value}" is not a date` : undefined;
  const seconds = typeof value === 'number' || typeof value === 'string' ? durationSeconds(value) : NaN;
  if (!Number.isFinite(seconds) || seconds < 1) return `${JSON.stringify(value)} is not a duration of at least one second`;
  if (seconds / 86_400 > MAX_DURATION_DAYS) return `${JSON.stringify(value)} is longer than ${MAX_DURATION_DAYS} days`;
  return undefined;
}

function urlProblem(value: unknown): string | undefined {
  try {
    const url = new URL(text(value));
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? undefined : `"${text(value)}" is not an http:// or https:// URL`;
  } catch {
    return `"${text(value)}" is not a URL`;
  }
}

function licenseProblems(given: Row): [string, string][] {
  const twice = givenTwice(given).map((names): [string, string] => [names[1]!, `${names.join(' and ')} are the same field: give one`]);
  if (twice.length > 0) return twice;
  const row = canonicalLicense(given);
  const out: [string, string][] = [];
  if (row.duration === undefined) out.push(['duration', '"duration" is required (how long the key grants, e.g. 30d; expiry is the same field)']);
  const duration = durationProblem(row.duration);
  if (duration) out.push(['duration', duration]);
  if (row.key !== undefined && row.count !== undefined) out.push(['count', 'a license is a fixed key or a batch (count), not both']);
  if (row.key === undefined && (row.status !== undefined || row.used_by !== undefined)) out.push(['status', 'only a fixed key (key:) can be used or banned']);
  if (row.status === 'used' && row.used_by === undefined) out.push(['used_by', 'a used key needs used_by (who used it)']);
  if ((row.status ?? 'unused') === 'unused' && row.used_by !== undefined) out.push(['used_by', 'an unused key has no user: give status used or banned']);
  if (row.ban_reason !== undefined && row.status !== 'banned') out.push(['ban_reason', 'only a banned key has a ban reason']);
  return out;
}

function userProblems(row: Row): [string, string][] {
  const out: [string, string][] = [];
  const one = row.subscription !== undefined || row.expiry !== undefined;
  if (one && row.subscriptions !== undefined) out.push(['subscriptions', 'give subscription and expiry, or subscriptions, not both']);
  else if (!one && row.subscriptions === undefined) out.push(['subscription', 'a user needs subscription and expiry, or subscriptions']);
  else if (one && (row.subscription === undefined || row.expiry === undefined)) out.push([row.subscription === undefined ? 'subscription' : 'expiry', 'subscription and expiry go together']);
  const expiry = durationProblem(row.expiry);
  if (expiry) out.push(['expiry', expiry]);
  for (const [index, sub] of (Array.isArray(row.subscriptions) ? (row.subscriptions as Row[]) : []).entries()) {
    const problem = durationProblem(sub.expiry);
    if (problem) out.push([`subscriptions[${index}].expiry`, problem]);
  }
  return out;
}

/** What is wrong with one record of `section` beyond its schema, field by field. */
function recordProblems(section: string, row: Row): [string, string][] {
  switch (section) {
    case 'licenses': return licenseProblems(row);
    case 'users': return userProblems(row);
    case 'webhooks':
    case 'files': {
      const problem = urlProblem(row.url);
      return problem ? [['url', problem]] : [];
    }
    default: return [];
  }
}

function itemSchema(section: string): JsonSchema | undefined {
  return ownValue(STATE_SCHEMA.properties ?? {}, section)?.items;
}

/** Every problem of a state body (its schema, then the rules above), each at its path. */
export function stateProblems(state: Row): Problem[] {
  const problems = validate(state, STATE_SCHEMA);
  if (problems.length > 0) return problems;
  for (const [section, rows] of Object.entries(state)) {
    if (!Array.isArray(rows)) continue;
    rows.forEach((row: Row, index) => {
      for (const [field, message] of recordProblems(section, row)) {
        const path: DocPath = [section, index, ...field.split(/[[\].]+/).filter((part) => part !== '').map((part) => (/^[0-9]+$/.test(part) ? Number(part) : part))];
        problems.push({ path, message });
      }
    });
  }
  return problems;
}

/** Why one record (from a server or a backup) cannot be in a state file, or undefined when it can. */
export function recordRefusal(section: string, row: Row): string | undefined {
  const schema = itemSchema(section);
  const first = (schema ? validate(row, schema) : []).map((p) => `${p.path.join('.') || 'it'}: ${p.message}`)[0];
  if (first) return first;
  const [problem] = recordProblems(section, row);
  return problem ? `${problem[0]}: ${problem[1]}` : undefined;
}

/** The calls of a plan the seller API would refuse for their values, one sentence each. */
export function callProblems(actions: readonly Action[]): string[] {
  const problems: string[] = [];
  for (const action of actions) {
    for (const call of action.calls) {
      const op = findSellerOp(call.type);
      if (!op) {
        problems.push(`${action.section} ${action.id}: the seller API has no ${call.type}`);
        continue;
      }
      for (const param of op.params) {
        const value = call.params[param.wire];
        if (value === LATER) continue;
        if (value === undefined || value === '') {
          if (param.required && op.fixedParams?.[param.wire] === undefined) problems.push(`${action.section} ${action.id}: ${call.type} needs ${param.wire}`);
          continue;
        }
        const problem = valueProblem(param, value);
        // The value is not repeated: it may be long, or read from the environment.
        if (problem) problems.push(`${action.section} ${action.id}: ${call.type} ${param.wire}: ${problem}`);
      }
    }
  }
  return problems;
}
