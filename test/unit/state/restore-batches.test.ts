/**
 * Restore makes missing keys many a call only where the server says it can (`getsettings` →
 * `sandbox.extensions.addkeys`, src/state/key-batches.ts), and one key a call everywhere else:
 * a hosted server would ignore `keys` and make one random key. Against a strict fake seller, so
 * each server's answer is exactly what a hosted or an extended server sends.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_KEYS_TEXT } from '../../../src/state/key-batches.js';
import { planLicenses } from '../../../src/state/license-plan.js';
import { callCount } from '../../../src/state/plan.js';
import { planning } from '../../../src/state/actions.js';
import { fakeSeller, json, ok } from '../seller/helpers.js';
import type { Answers } from '../seller/helpers.js';
import type { Reply } from '../api/helpers/servers.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A backup of `licenses delete --all`: five unused keys of one kind, one of another, one banned. */
function backupFile(): string {
  const unused = (key: string, note = 'batch'): Record<string, unknown> => ({ key, status: 'Not Used', level: '1', expires: '2592000', note, usedby: null, banned: null });
  const records = [
    ...['K-1', 'K-2', 'K-3', 'K-4', 'K-5'].map((key) => unused(key)),
    unused('K-OTHER', 'other'),
    { key: 'K-BANNED', status: 'Banned', level: '1', expires: '2592000', note: 'batch', usedby: null, banned: 'chargeback' },
  ];
  const file = path.join(tempDir('kactl-batches-'), 'backup.json');
  fs.writeFileSync(file, JSON.stringify({
    kactl: 'backup', version: 1, createdAt: '2030-01-01T00:00:00.000Z', server: undefined, profile: undefined, app: undefined,
    action: { type: 'delalllicenses', command: 'kactl licenses delete --all', params: {} }, source: { type: 'fetchallkeys', key: 'keys' }, records,
  }));
  return file;
}

/** `add` as a server makes keys: a fixed mask is the key; `keys` (where taken) the keys listed. */
function add(takesKeys: boolean) {
  return (_req: unknown, params: Record<string, string>): Reply => {
    const keys = takesKeys && params.keys !== undefined ? params.keys.split('\n') : [params.mask ?? 'RANDOM-KEY'];
    return keys.length === 1 ? json({ success: true, message: 'License Successfully Generated', key: keys[0] }) : json({ success: true, message: 'Licenses successfully generated', keys });
  };
}

/** `ban: false` when the run stops before the banned key. */
function seller(getsettings: Answers[string], takesKeys: boolean, { ban = true } = {}) {
  return fakeSeller({ fetchallkeys: () => json({ success: false, message: 'No keys found' }, 406), getsettings, add: add(takesKeys), ...(ban ? { ban: ok } : {}) });
}

describe('restore: several keys a call only where the server says so', () => {
  it('against a server that lists no extension (the hosted service), one add a key, each key as its mask', async () => {
    const hosted = await seller(() => json({ success: true, message: 'Retrieved Settings Successfully', enabled: true, version: '1.0' }), false);
    const { code, stderr } = await hosted.run(['restore', backupFile(), '--yes', '--force']);
    expect(code, stderr).toBe(0);
    const adds = hosted.sent('add');
    expect(adds.map((p) => p.mask)).toEqual(['K-1', 'K-2', 'K-3', 'K-4', 'K-5', 'K-OTHER', 'K-BANNED']);
    for (const p of adds) expect(p).not.toHaveProperty('keys');
    expect(stderr).toContain('Put back 7 records');
  });

  it('against a server that refuses getsettings, one add a key as well', async () => {
    const refusing = await seller(() => json({ success: false, message: 'Type doesn\'t exist' }), false);
    const { code, stderr } = await refusing.run(['restore', backupFile(), '--yes', '--force']);
    expect(code, stderr).toBe(0);
    expect(refusing.sent('add').map((p) => p.mask)).toEqual(['K-1', 'K-2', 'K-3', 'K-4', 'K-5', 'K-OTHER', 'K-BANNED']);
  });

  it('against a server that lists addkeys, the keys of one level, note and duration go together, at most as many as it says', async () => {
    const extended = await seller(() => json({ success: true, message: 'Retrieved Settings Successfully', sandbox: { extensions: { addkeys: 2 } } }), true);
    const { code, stdout, stderr } = await extended.run(['restore', backupFile(), '--yes', '--force', '--json']);
    expect(code, stderr).toBe(0);
    const adds = extended.sent('add').map(({ sellerkey: _key, ...params }) => params);
    expect(adds).toEqual([
      { type: 'add', expiry: '30', level: '1', note: 'batch', keys: 'K-1\nK-2' },
      { type: 'add', expiry: '30', level: '1', note: 'batch', keys: 'K-3\nK-4' },
      // Alone in its batch, or of another kind, or banned (made and banned in one action): its own call.
      { type: 'add', expiry: '30', level: '1', note: 'batch', amount: '1', mask: 'K-5' },
      { type: 'add', expiry: '30', level: '1', note: 'other', amount: '1', mask: 'K-OTHER' },
      { type: 'add', expiry: '30', level: '1', note: 'batch', amount: '1', mask: 'K-BANNED' },
    ]);
    expect(extended.sent('ban')).toEqual([expect.objectContaining({ key: 'K-BANNED', reason: 'chargeback' })]);
    // Every key is still its own record in the plan and in what was done.
    const report = JSON.parse(stdout) as { plan: { id: string }[]; done: { id: string }[] };
    expect(report.done.map((a) => a.id).sort()).toEqual(['K-1', 'K-2', 'K-3', 'K-4', 'K-5', 'K-BANNED', 'K-OTHER']);
    expect(report.plan).toHaveLength(7);
  });

  it('stops, naming the keys as not done, when such a server makes fewer keys than it was given', async () => {
    const liar = await seller(() => json({ success: true, message: 'ok', sandbox: { extensions: { addkeys: 100 } } }), false, { ban: false });
    const { code, stderr } = await liar.run(['restore', backupFile(), '--yes', '--force']);
    expect(code).toBe(1);
    expect(stderr).toContain('The server answered 1 key for the 5 given in one call; it does not take several given keys after all.');
    expect(stderr).toContain('Not done (7):');
  });

  it('keeps the keys of one call within what a request line carries: long keys go fewer a call', () => {
    const long = (i: number): string => `${String(i).padStart(4, '0')}-${'A'.repeat(995)}`;
    const desired = Array.from({ length: 100 }, (_, i) => ({ key: long(i), level: 1, expiry: '30d' }));
    const { actions } = planLicenses(desired, [], planning({ keysPerCall: 100 }));
    const batches = [...new Set(actions.map((a) => a.batch))];
    const sizes = batches.map((batch) => batch!.call.params.keys!.split('\n').length);
    expect(sizes).toEqual([31, 31, 31, 7]);
    for (const batch of batches) expect(encodeURIComponent(batch!.call.params.keys!).length).toBeLessThanOrEqual(MAX_KEYS_TEXT);
    expect(callCount(actions)).toBe(4);
    // Keys of the usual length: a hundred a call.
    const short = Array.from({ length: 250 }, (_, i) => ({ key: `KEY-${i}`, level: 1, expiry: '30d' }));
    expect(callCount(planLicenses(short, [], planning({ keysPerCall: 100 })).actions)).toBe(3);
    expect(callCount(planLicenses(short, [], planning()).actions)).toBe(250);
  });
});
