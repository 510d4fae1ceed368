/**
 * Which records a reader wants (`GET /sandbox/requests?type=login,init&failed=1…`): one
 * predicate, used for the stored records and for the live ones a follower is sent.
 */
import type { Params } from '../dispatch/params.js';
import { isFailed } from './derived.js';
import { RECORD_APIS, type RecordApi, type RequestRecord } from './records.js';

export interface RecordFilter {
  /** Only these types (any of them). */
  readonly types?: ReadonlySet<string>;
  readonly apis?: ReadonlySet<RecordApi>;
  /** Only refusals (derived.ts `isFailed`): not empty lists, nor kactl's own probes. */
  readonly failed?: boolean;
  readonly user?: string;
  /** Arrived at or after this time (ms since the epoch). */
  readonly since?: number;
}

export function matches(record: RequestRecord, filter: RecordFilter): boolean {
  if (filter.types !== undefined && (record.type === null || !filter.types.has(record.type))) return false;
  if (filter.apis !== undefined && !filter.apis.has(record.api)) return false;
  if (filter.failed === true && !isFailed(record)) return false;
  if (filter.user !== undefined && record.user !== filter.user) return false;
  if (filter.since !== undefined && record.at < filter.since) return false;
  return true;
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

/** A yes/no query parameter; an unknown word is an error. */
export function flagOf(params: Params, name: string): boolean | { error: string } {
  const value = params.get(name)?.toLowerCase();
  if (value === undefined || FALSE_WORDS.has(value)) return false;
  if (TRUE_WORDS.has(value)) return true;
  return { error: `${name} must be 1 or 0 (true/false, yes/no)` };
}

/** The filter a request's query asks for, or what is wrong with it. */
export function filterOf(params: Params): RecordFilter | { error: string } {
  const list = (name: string): string[] | undefined => params.get(name)?.split(',').map((item) => item.trim()).filter((item) => item !== '');
  const types = list('type');
  const apis = list('api');
  const unknownApi = apis?.find((api) => !(RECORD_APIS as readonly string[]).includes(api));
  if (unknownApi !== undefined) return { error: `api must be among ${RECORD_APIS.join(', ')}; got ${unknownApi}` };
  const failed = flagOf(params, 'failed');
  if (typeof failed === 'object') return failed;
  const sinceText = params.get('since');
  const since = sinceText === undefined ? undefined : timeOf(sinceText);
  if (since !== undefined && Number.isNaN(since)) return { error: 'since must be a time: milliseconds since the epoch or an ISO 8601 date' };
  const user = params.get('user');
  return {
    ...(types && types.length > 0 ? { types: new Set(types) } : {}),
    ...(apis && apis.length > 0 ? { apis: new Set(apis as RecordApi[]) } : {}),
    ...(failed ? { failed } : {}),
    ...(user !== undefined ? { user } : {}),
    ...(since !== undefined ? { since } : {}),
  };
}

function timeOf(text: string): number {
  if (/^\d{1,15}$/.test(text)) return Number(text);
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
}
