/** An ActionIO for the planners' tests: records the calls it is sent and answers from `answers` (by type). */
import type { ActionIO, Call } from '../../../src/state/actions.js';

export function fakeIO(nowSeconds: number, answers: Record<string, (call: Call) => Record<string, unknown>> = {}): ActionIO & { sent: Call[] } {
  const sent: Call[] = [];
  return {
    sent,
    nowSeconds: () => nowSeconds,
    send: (call) => {
      sent.push(call);
      return Promise.resolve().then(() => (answers[call.type] ?? (() => ({ success: true })))(call));
    },
  };
}
