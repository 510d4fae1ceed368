/**
 * The dashboard's faults view (ui/views/faults.ts) works on the admin route's own FaultBook: a
 * fault added by its form is the one `GET /sandbox/faults` lists and the one that fires, one added
 * through the admin route shows in the view, and its clear buttons empty the same book. A form
 * without its token changes nothing; a wrong fault (a misspelt type too) is refused with
 * checkFaultInput's sentence and nothing is added. The requests view marks what a fault did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { dashboardSignIn, postDashboard, postForNotice, type DashboardSignIn } from '../../helpers/dashboard.js';

let sb: TestSandbox;
let me: DashboardSignIn;

async function adminFaults(): Promise<Array<Record<string, unknown>>> {
  const res = await sb.request('/sandbox/faults', { headers: { authorization: `Bearer ${sb.info.adminToken}` } });
  expect(res.status, res.text).toBe(200);
  return res.json.faults as Array<Record<string, unknown>>;
}

async function faultsPage(): Promise<string> {
  const res = await sb.request('/sandbox/ui/faults', { headers: { cookie: me.cookie } });
  expect(res.status).toBe(200);
  return res.text;
}

const EMPTY = { arg: '', type: '', api: '', user: '', times: '', rate: '' };

beforeAll(async () => {
  sb = await startTestSandbox();
  me = await dashboardSignIn(sb);
});
afterAll(() => sb.close());

describe('dashboard faults view', () => {
  it('adds a fault through the form into the admin route\'s book; it fires; the view lists it', async () => {
    expect(await postForNotice(sb, me, '/sandbox/ui/faults/add', { ...EMPTY, kind: 'status', arg: '503', type: 'init', api: '1.3', times: '1' })).toBe(
      'status: Fault 1 added: status 503 on type=init api=1.3 times=1.',
    );
    expect(await adminFaults()).toEqual([{ id: 1, kind: 'status', arg: '503', types: ['init'], apis: ['1.3'], user: null, times: 1, rate: null, fired: 0 }]);
    const faulted = await sb.client('init', { ver: sb.info.app.version });
    expect(faulted.status).toBe(503);
    // The dashboard is never faulted: the view still loads while a fault would hit every page.
    expect(await postForNotice(sb, me, '/sandbox/ui/faults/add', { ...EMPTY, kind: 'html', api: 'page' })).toBe('status: Fault 2 added: html on api=page.');
    const page = await faultsPage();
    expect(page).toContain('<td>1</td><td>status</td><td>503</td><td>type=init api=1.3 times=1</td><td>1</td>');
    expect(page).toContain('<td>2</td><td>html</td><td></td><td>api=page</td><td>0</td>');
    expect(page).toContain('Clear fault 1');
  });

  it('shows a fault the admin route added, and clears one, then all', async () => {
    const res = await sb.request('/sandbox/faults', {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.info.adminToken}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'kind=delay&arg=2s&user=alice&rate=0.5',
    });
    expect(res.status, res.text).toBe(200);
    const id = res.json.fault.id as number;
    expect(await faultsPage()).toContain(`<td>${id}</td><td>delay</td><td>2s</td><td>user=alice rate=0.5</td><td>0</td>`);
    expect(await postForNotice(sb, me, '/sandbox/ui/faults/clear', { id: '1' })).toBe('status: Fault 1 cleared.');
    expect((await adminFaults()).map((fault) => fault.id)).toEqual([2, id]);
    expect(await postForNotice(sb, me, '/sandbox/ui/faults/clear', { id: '1' })).toBe('alert: No fault has id 1: it was cleared already.');
    expect(await postForNotice(sb, me, '/sandbox/ui/faults/clear-all', {})).toBe('status: Cleared 2 faults: the sandbox answers as it should.');
    expect(await adminFaults()).toEqual([]);
    expect(await faultsPage()).toContain('No faults: the sandbox answers as it should.');
    expect(await postForNotice(sb, me, '/sandbox/ui/faults/clear-all', {})).toBe('status: There were no faults to clear.');
  });

  it('refuses a wrong fault with checkFaultInput\'s sentence and adds nothing; the form is shown again', async () => {
    expect(await postForNotice(sb, me, '/sandbox/ui/faults/add', { ...EMPTY, kind: 'status' })).toBe('alert: status needs a CODE, e.g. 503.');
    expect(await postForNotice(sb, me, '/sandbox/ui/faults/add', { ...EMPTY, kind: 'delay', arg: '1s', times: '2', rate: '0.5' })).toBe('alert: Give --times or --rate, not both.');
    expect(await postForNotice(sb, me, '/sandbox/ui/faults/add', { ...EMPTY, kind: 'forge-signature', api: 'seller' })).toBe(
      'alert: forge-signature changes signed client answers, so its --api can only be 1.3 or 1.2.',
    );
    // A misspelt type could never fire: refused as the admin route and the command refuse it.
    expect(await postForNotice(sb, me, '/sandbox/ui/faults/add', { ...EMPTY, kind: 'forge-signature', type: 'logn' })).toBe(
      'alert: --type &#34;logn&#34; is no client API type (did you mean login or log?), so the fault would never fire.',
    );
    expect(await adminFaults()).toEqual([]);
    const page = await faultsPage();
    expect(page).toContain('action="/sandbox/ui/faults/add"');
    expect(page).toContain('<option value="stale-timestamp">stale-timestamp (DURATION)</option>');
  });

  it('the requests view shows what the client got: a faulted 503 refused, the fault in its own column', async () => {
    await postForNotice(sb, me, '/sandbox/ui/faults/clear-all', {});
    const added = await postForNotice(sb, me, '/sandbox/ui/faults/add', { ...EMPTY, kind: 'status', arg: '503', type: 'check', times: '1' });
    const id = /Fault (\d+) added/.exec(added)![1];
    await sb.client('check', { sessionid: await sb.init() });
    const res = await sb.request('/sandbox/ui/requests?type=check', { headers: { cookie: me.cookie } });
    expect(res.text).toContain('<th scope="col">Fault</th>');
    expect(res.text).toMatch(new RegExp(`<td>check</td><td></td><td>503</td><td>refused</td><td>#${id} status 503</td><td>the answer with HTTP 503; the sandbox&#39;s own answer: `));
    await postForNotice(sb, me, '/sandbox/ui/faults/clear-all', {});
  });

  it('a form without its token (or with another) is refused and changes nothing', async () => {
    for (const token of [undefined, 'not-the-token']) {
      const form = { kind: 'text', ...(token === undefined ? {} : { form_token: token }) };
      const res = await postDashboard(sb, me, '/sandbox/ui/faults/add', form);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('This form has expired or did not come from the dashboard');
    }
    await postForNotice(sb, me, '/sandbox/ui/faults/add', { ...EMPTY, kind: 'text' });
    for (const path of ['/sandbox/ui/faults/clear-all', '/sandbox/ui/faults/clear']) {
      expect((await postDashboard(sb, me, path, { id: '1' })).status).toBe(403);
    }
    expect((await adminFaults()).map((fault) => fault.kind)).toEqual(['text']);
    // Signed out, the view and its forms answer 401.
    expect((await sb.request('/sandbox/ui/faults')).status).toBe(401);
    expect((await postDashboard(sb, { cookie: '' }, '/sandbox/ui/faults/clear-all', { form_token: me.formToken })).status).toBe(401);
    expect(await adminFaults()).toHaveLength(1);
  });

  it('escapes a user filter that carries markup', async () => {
    await postForNotice(sb, me, '/sandbox/ui/faults/clear-all', {});
    const user = `x" onmouseover="alert(1)" & < b`;
    const notice = await postForNotice(sb, me, '/sandbox/ui/faults/add', { ...EMPTY, kind: 'text', user });
    expect(notice).toMatch(/^status: Fault \d+ added: text on user=x&#34; onmouseover=&#34;alert\(1\)&#34; &#38; &#60; b\.$/);
    const page = await faultsPage();
    expect(page).toContain('<td>user=x&#34; onmouseover=&#34;alert(1)&#34; &#38; &#60; b</td>');
    expect(page).not.toContain('onmouseover="alert');
  });
});
