/** Adding faults over the admin route `/sandbox/faults`, as the fault tests do. */
import { expect } from 'vitest';
import type { HttpResult, ParamValues, TestSandbox } from '../../helpers/sandbox.js';

/** POST /sandbox/faults with the form given (undefined fields left out), with the admin token. */
export async function addFault(sb: TestSandbox, form: ParamValues): Promise<HttpResult> {
  const body = new URLSearchParams(Object.entries(form).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return sb.request('/sandbox/faults', {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.info.adminToken}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
}

/** Adds a fault that must be accepted; its id. */
export async function added(sb: TestSandbox, form: ParamValues): Promise<number> {
  const res = await addFault(sb, form);
  expect(res.status, res.text).toBe(200);
  return res.json.fault.id as number;
}
