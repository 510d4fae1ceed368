/**
 * What the state engine takes from the seller catalog instead of writing it out beside it
 * (24.2): which list a section is read and backed up from, whether it can be read at all, and
 * the calls it makes. The invariants hold by construction; these tests keep them so.
 */
import { describe, expect, it } from 'vitest';
import { SELLER_CATALOG, SELLER_GROUP_ORDER, findSellerOp, opsForGroup, wireParamsForType } from '../../../src/api/seller-catalog/index.js';
import type { SellerGroup } from '../../../src/api/seller-catalog/index.js';
import { planBlacklists, planChannels, planFiles, planSubscriptions, planTeam, planUservars, planVariables, planWhitelists } from '../../../src/state/records.js';
import { SECTIONS, planning } from '../../../src/state/actions.js';
import type { Action } from '../../../src/state/actions.js';
import { SECTION_GROUPS, catalogCall, sectionSource } from '../../../src/state/sections.js';
import { SECTION_SOURCES } from '../../../src/state/backup.js';
import { callProblems } from '../../../src/state/check.js';
import { keyStatus } from '../../../src/state/license-plan.js';

const hasList = (group: SellerGroup): boolean => opsForGroup(group).some((op) => op.response.kind === 'list' && op.command.join(' ') === 'list');

describe('backups and lists, by construction', () => {
  it('a group with a list command backs up every bulk delete of its records from a list, and gives no reason it cannot', () => {
    for (const group of SELLER_GROUP_ORDER) {
      for (const op of opsForGroup(group).filter((o) => o.effect === 'bulk')) {
        // Every bulk change either backs up or says why it cannot.
        expect(op.noBackupReason ?? op.backupFrom, op.type).toBeDefined();
        expect(op.noBackupReason !== undefined && op.backupFrom !== undefined, op.type).toBe(false);
        // `delete` acts on the records the group's list lists (`chats clear` acts on messages, which no list shows).
        if (hasList(group) && op.command[0] === 'delete') {
          expect(op.backupFrom, `${op.type}: ${group} has a list`).toBeDefined();
          expect(op.noBackupReason, `${op.type}: ${group} has a list, so "${op.noBackupReason}" is stale`).toBeUndefined();
        }
      }
    }
  });

  it('every backup source is a list operation', () => {
    for (const op of SELLER_CATALOG.filter((o) => o.backupFrom !== undefined)) expect(findSellerOp(op.backupFrom!)?.response.kind, op.type).toBe('list');
  });

  it('a section is read (and backed up) from its group\'s list exactly when the catalog has one; else it is ensured', () => {
    for (const section of SECTIONS.filter((s) => s !== 'app')) {
      const group = SECTION_GROUPS[section];
      expect(sectionSource(section) !== undefined, section).toBe(hasList(group));
      expect(SECTION_SOURCES[section], section).toEqual(sectionSource(section));
    }
    const ensured = planWhitelists([{ ip: '203.0.113.7' }], undefined);
    expect(ensured[0]!.verb).toBe(hasList('whitelists') ? 'create' : 'ensure');
    expect(ensured[0]!.detail.join(' ')).toContain('cannot list whitelists');
    // Listed, whitelists are planned like any keyed section.
    expect(planWhitelists([{ ip: '203.0.113.7' }], [{ ip: '203.0.113.7' }, { ip: '198.51.100.1' }], planning({ prune: true })).map((a) => `${a.verb} ${a.id}`)).toEqual(['delete 198.51.100.1']);
  });

  it('a key\'s state in a state file reads the words --status names', () => {
    expect(['Not Used', 'Used', 'Banned', 'Paused'].map((status) => keyStatus({ status }))).toEqual(['unused', 'used', 'banned', 'paused']);
  });
});

describe("the state engine's calls come from the catalog", () => {
  const prune = planning({ prune: true });
  const actions: Action[] = [
    ...planSubscriptions([{ name: 'gold', level: 2 }, { name: 'new', level: 1 }], [{ name: 'gold', level: '1' }, { name: 'old', level: '1' }], prune),
    ...planVariables([{ name: 'motd', value: 'hi' }, { name: 'flag', value: 'x', authed: true }, { name: 'plus', value: 'y' }], [{ varid: 'motd', msg: 'old', authed: '0' }, { varid: 'flag', msg: 'x', authed: '0' }, { varid: 'gone', msg: '', authed: '0' }], prune),
    ...planUservars([{ username: 'alice', name: 'tier', value: 'gold', readonly: true }], [{ user: 'alice', name: 'tier', data: 'silver' }, { user: 'bob', name: 'x', data: '' }], prune),
    ...planChannels([{ name: 'lobby', delay: 120 }, { name: 'new', delay: 5 }], [{ name: 'lobby', delay: '60' }, { name: 'old', delay: '0' }], prune),
    ...planFiles([{ url: 'https://files.example.com/a.zip' }], [{ url: 'https://files.example.com/old.zip', id: '123456' }], prune),
    ...planBlacklists([{ ip: '203.0.113.7' }, { hwid: 'H-1' }], [{ type: 'hwid', hwid: 'H-2' }], prune),
    ...planWhitelists([{ ip: '203.0.113.8' }], undefined),
    ...planTeam([{ role: 'manager', username: 'm1', password: 'pw', email: 'm@example.com', keylevels: '1', perms: 3 }], [{ username: 'r1', role: 'reseller' }], prune),
  ];

  it('every call is a catalog type with only its wire parameters, and nothing it requires is missing', () => {
    const calls = actions.flatMap((a) => a.calls);
    expect(new Set(calls.map((c) => c.type))).toEqual(new Set(['addsub', 'editsub', 'delappsub', 'addvar', 'delvar', 'editvar', 'setvar', 'deluservar', 'addchannel', 'editchan', 'delchannel', 'upload', 'delfile', 'black', 'delblack', 'addWhite', 'addAccount', 'deleteAccount']));
    for (const call of calls) {
      const wire = wireParamsForType(call.type).map((p) => p.wire);
      for (const name of Object.keys(call.params)) expect(wire, `${call.type} ${name}`).toContain(name);
    }
    expect(callProblems(actions)).toEqual([]);
  });

  it('a flag the catalog entry does not have is refused, never sent', () => {
    expect(() => catalogCall('subs', ['create'], { name: 'x', colour: 'red' })).toThrow('subs create has no --colour');
    expect(() => catalogCall('whitelists', ['list'], {})).toThrow('the seller catalog has no whitelists list');
  });
});
