/**
 * Help made from the catalog: every operation's command exists, its help shows the summary,
 * the example, each flag with its unit as the value placeholder, and each group's help lists
 * every example of the group. No network: help never calls the server.
 */
import { describe, expect, it } from 'vitest';
import { lowerFirst } from '../../../src/commands/seller/wording.js';
import { SELLER_CATALOG, SELLER_GROUP_ORDER, opKey, opsForGroup } from '../../../src/api/seller-catalog/index.js';
import { runMain } from '../../helpers/run-main.js';

/**
 * The help as one would paste it into a shell: an example wider than the help's 80 columns goes
 * on over lines that end in ` \` (src/commands/help/layout.ts), which the shell joins.
 */
async function help(words: readonly string[]): Promise<string> {
  const { code, stdout, stderr } = await runMain([...words, '--help']);
  expect(code, stderr).toBe(0);
  return stdout.replace(/ \\\n\s+/g, ' ');
}

describe('seller help from the catalog', () => {
  it('`kactl licenses --help` lists the verbs and an example of each', async () => {
    const text = await help(['licenses']);
    expect(text).toContain('Usage: kactl licenses');
    expect(text).toContain('Examples:');
    expect(text).toContain('$ kactl licenses create --amount 10 --expiry 30');
    expect(text).toMatch(/list\|ls/);
    expect(text).toMatch(/delete\|rm/);
  });

  it.each(SELLER_GROUP_ORDER)('kactl %s --help shows every example of the group', async (group) => {
    const text = await help([group]);
    for (const op of opsForGroup(group)) expect(text, opKey(op)).toContain(`$ ${op.example}`);
  });

  it.each(SELLER_CATALOG.map((op) => [opKey(op), op] as const))('%s: its verb help shows the summary, the example and the flags', async (_key, op) => {
    const text = await help([op.group, ...op.command]);
    expect(text).toContain('Examples:');
    expect(text).toContain(`$ ${op.example}`);
    expect(text.replace(/\s+/g, ' ')).toContain(lowerFirst(op.summary).replace(/\s+/g, ' ').slice(0, 30));
    if (op.selector !== undefined) expect(text).toContain(`--${op.selector}`);
    for (const param of op.params) {
      // Sent only to a server that says it takes it: never a flag.
      if (param.sandboxExtension !== undefined) expect(text).not.toContain(`--${param.flag}`);
      else if (param.positional) expect(text).toMatch(new RegExp(`[<[]${param.flag}[>\\]]`));
      else if (param.unit) expect(text).toContain(`--${param.flag} <${param.unit}>`);
      else expect(text).toContain(`--${param.flag}`);
      if (param.secret) expect(text).toContain(`--${param.flag}-stdin`);
    }
    if (op.effect !== 'read') expect(text).toContain('--dry-run');
    if (op.effect === 'bulk' && op.backupFrom !== undefined) expect(text).toContain('--no-backup');
  });

  it('names the unit of every duration in the help text', async () => {
    expect(await help(['users', 'subtract'])).toContain('--seconds is in seconds');
    expect(await help(['chats', 'edit'])).toContain('--delay-minutes <minutes>');
    expect(await help(['chats', 'create'])).toContain('--delay-seconds <seconds>');
    expect(await help(['licenses', 'edit'])).toContain('--seconds <seconds>');
    expect(await help(['users', 'extend'])).toContain('--expiry <days>');
  });

  it('says which flags belong to which selector', async () => {
    const text = (await help(['users', 'extend'])).replace(/\s+/g, ' ');
    expect(text).toContain('--active-only only users who already hold an active subscription of that name (only with --all)');
    expect((await help(['licenses', 'delete'])).replace(/\s+/g, ' ')).toContain('(not with --all, --used, --unused)');
  });

  it('reaches verbs through their aliases', async () => {
    expect(await help(['licenses', 'ls'])).toContain('Usage: kactl licenses list|ls');
    expect(await help(['users', 'rm'])).toContain('Usage: kactl users delete|rm');
    expect(await help(['vars', 'info'])).toContain('Usage: kactl vars get|info');
  });

  it('nests two-word paths and lists their examples', async () => {
    const text = await help(['app', 'hash']);
    expect(text).toContain('$ kactl app hash add --md5');
    expect(text).toContain('$ kactl app hash reset');
    expect(await help(['app', 'hash', 'add'])).toContain('--file <path>');
  });

  it('keeps catalog flags spelt like global options apart from them', async () => {
    const text = await help(['team', 'balance']);
    expect(text).toContain("(default: the profile's application name)");
    expect(await help(['app', 'set'])).toContain('--app-version <app-version>');
  });
});
