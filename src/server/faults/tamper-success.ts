/**
 * `tamper-success`: a signed answer changed after signing into one a program would act on, the
 * signature headers left as they were (they sign the genuine body). A refusal becomes the
 * success a valid key gets (made-up-success.ts), where `tamper` only flips the `success` field
 * and leaves a "success" no program could use; a login success gets a higher `level` in each of
 * its subscriptions. Any other answer is left alone (the fault does not fire on it).
 */
import type { EncodedResponse } from '../http/encoded-response.js';
import { parsedBody, successBody, successFields, type RequestFacts } from './made-up-success.js';
import type { FaultEffect } from './effect.js';

/** The level a tampered login claims. */
export const TAMPERED_LEVEL = '99';

interface Subscription {
  readonly level?: unknown;
}

function subscriptionsOf(body: Record<string, unknown> | undefined): Subscription[] | undefined {
  const info = body?.info as { subscriptions?: unknown } | undefined;
  return Array.isArray(info?.subscriptions) ? (info.subscriptions as Subscription[]) : undefined;
}

/** Whether the fault changes this answer: a refusal, or a success that carries levels. */
export function tamperSuccessApplies(body: Buffer): boolean {
  const parsed = parsedBody(body);
  if (parsed === undefined) return false;
  if (parsed.success === false) return true;
  return subscriptionsOf(parsed)?.some((sub) => sub.level !== undefined) === true;
}

export function tamperedToSuccess(genuine: EncodedResponse & { readonly body: Buffer }, request: RequestFacts): FaultEffect {
  const parsed = parsedBody(genuine.body);
  let fields: Record<string, unknown>;
  if (parsed?.success === true) {
    const info = parsed.info as Record<string, unknown>;
    const raised = subscriptionsOf(parsed)!.map((sub) => (sub.level === undefined ? sub : { ...sub, level: TAMPERED_LEVEL }));
    fields = { ...parsed, info: { ...info, subscriptions: raised } };
  } else {
    fields = successFields(genuine.body, request);
  }
  const body = successBody(request.api, fields, request.param('ownerid') ?? null);
  return { response: { status: 200, headers: genuine.headers, body } };
}
