/**
 * The seller registry against the catalog, and the catalog-driven parameter check: every catalog
 * type (and recorded alias) has a handler, nothing else does, and malformed parameters are
 * refused before a handler runs, with the page's wording where it gives one.
 */
import { describe, expect, it } from 'vitest';
import { knownSellerTypes, type ParamSpec } from '../../src/api/seller-catalog/index.js';
import { Params } from '../../src/server/dispatch/params.js';
import { checkParamList, checkSellerParams } from '../../src/server/seller/params.js';
import { sellerHandlers } from '../../src/server/seller/index.js';
import { expectFail, expectOk, startSellerSandbox } from './support/seller-helpers.js';

function params(values: Record<string, string>): Params {
  return new Params(Object.entries(values));
}

function refusal(type: string, values: Record<string, string>): string | undefined {
  const check = checkSellerParams(type, params(values));
  return 'reply' in check ? (check.reply.fields['message'] as string) : undefined;
}

describe('registry', () => {
  it('has a handler for every catalog type and every recorded alias', () => {
    const missing = knownSellerTypes().filter((type) => !Object.hasOwn(sellerHandlers, type));
    expect(missing).toEqual([]);
  });

  it('has no handler for a type the catalog does not describe', () => {
    const known = new Set(knownSellerTypes());
    expect(Object.keys(sellerHandlers).filter((type) => !known.has(type))).toEqual([]);
  });

  it('answers both spellings of the disputed types over HTTP', async () => {
    const sb = await startSellerSandbox();
    for (const [first, second] of [['delallbuttons', 'delAllButtons'], ['delallwhites', 'delAllWhites']] as const) {
      expectFail(await sb.seller(first), first === 'delallbuttons' ? 'Failed to delete all buttons!' : 'Failed to delete all whitelists!');
      expectFail(await sb.seller(second), second === 'delAllButtons' ? 'Failed to delete all buttons!' : 'Failed to delete all whitelists!');
    }
    expectOk(await sb.seller('addbutton', { text: 'Go', value: 'go' }));
    expectOk(await sb.seller('delAllButtons'), 'Successfully deleted all buttons!');
    expectOk(await sb.seller('addWhite', { ip: '198.51.100.1' }));
    expectOk(await sb.seller('delAllWhites'), 'Successfully deleted all whitelists!');
  });
});

describe('parameter check', () => {
  it('names a missing required parameter, or uses the page message for it', () => {
    expect(refusal('del', {})).toBe('Missing parameter: key');
    expect(refusal('add', {})).toBe('Expiry not set');
    expect(refusal('adduser', { sub: 'default', expiry: '1' })).toBe('You must specify username.');
    expect(refusal('setvar', { user: 'a', data: 'x' })).toBe('Must specify variable name');
    expect(refusal('setvar', { user: 'a', var: 'x' })).toBe('Must specify variable data');
    expect(refusal('countsubs', {})).toBe('Paramater with name "name" missing');
    expect(refusal('banuser', { user: 'a' })).toBe('Ban reason is missing');
    expect(refusal('setbalance', {})).toBe('Username Not Set');
    expect(refusal('addchannel', { delay: '1' })).toBe('Channel name not specified');
    expect(refusal('edit', { key: 'K' })).toBe('You must set expiry value');
  });

  it('treats an empty or whitespace-only value as missing, as the sanitiser does', () => {
    expect(refusal('del', { key: '  ' })).toBe('Missing parameter: key');
    expect(refusal('add', { expiry: '' })).toBe('Expiry not set');
  });

  it('refuses malformed numbers, flags, choices and lengths', () => {
    expect(refusal('add', { expiry: 'ten' })).toBe('Expiry must a number of days');
    expect(refusal('add', { expiry: '1', amount: '2.5' })).toBe('Invalid parameter: amount must be a whole number');
    expect(refusal('add', { expiry: '1', level: '1234567890123' })).toBe('Level too long');
    expect(refusal('add', { expiry: '1', character: '4' })).toBe('Invalid parameter: character must be one of 1, 2, 3');
    expect(refusal('add', { expiry: '1e300' })).toBe('Expiry must a number of days');
    expect(refusal('adduser', { user: 'a', sub: 'default', expiry: 'x' })).toBe('Expiry not set correctly, must be number of days');
    expect(refusal('addsub', { name: 'p', level: 'gold' })).toBe('Level must be a number');
    expect(refusal('addsub', { name: 'p', level: '1234567890123' })).toBe('Level too long');
    expect(refusal('muteuser', { user: 'a', time: 'soon' })).toBe('Invalid time paramater, must be number');
    expect(refusal('addvar', { name: 'v', data: 'x', authed: '2' })).toBe("Authed paramater must be 1 if you want to require login first, or 0 if you don't want to.");
    expect(refusal('addvar', { name: 'v', data: 'x'.repeat(1001), authed: '1' })).toBe('Data is too long. Must be less than 1000 characters. Use files for larger data');
    expect(refusal('setnote', { key: 'K', note: 'n'.repeat(70) })).toBe('Note must be less than 69 characters');
    expect(refusal('updatesettings', { hwidcheck: 'maybe' })).toBe('The hwidcheck value must be "true" or "false"');
    expect(refusal('updatesettings', { enabled: 'maybe' })).toBe('Invalid parameter: enabled must be 1/0, true/false, yes/no or on/off');
    expect(refusal('del', { key: 'K', userToo: 'maybe' })).toBe('Invalid parameter: userToo must be 1/0, true/false, yes/no or on/off');
    for (const word of ['1', '0', 'true', 'FALSE', 'Yes', 'no', 'ON', 'off']) expect(refusal('del', { key: 'K', userToo: word })).toBeUndefined();
    expect(refusal('delblack', { data: 'x', blacktype: 'mac' })).toBe('Invalid blacklist type!');
    expect(refusal('addAccount', { role: 'admin', user: 'u', pass: 'p', email: 'e@x' })).toBe('Role options are Manager or Reseller!');
    expect(refusal('addwebhook', { baseurl: 'http://x', authed: '1', webid: 'w'.repeat(61) })).toBe('Invalid parameter: webid must be at most 60 characters');
    expect(refusal('subtract', { user: 'a', sub: 's', seconds: '1.5' })).toBe('Seconds specified must be greater than zero!');
  });

  it('passes well-formed parameters, fractions of days included', () => {
    expect(refusal('add', { expiry: '0.5', amount: '3', level: '2', character: '2', mask: 'AB-****' })).toBeUndefined();
    expect(refusal('editchan', { name: 'general', delay: '0.25' })).toBeUndefined();
    expect(refusal('extend', { user: 'all', sub: 'default', expiry: '2', activeOnly: '1' })).toBeUndefined();
  });

  it('copies a value sent under a recorded alias to its wire name', () => {
    const specs: ParamSpec[] = [{ wire: 'ua', flag: 'user-agent', type: 'string', required: true, description: 'x', wireAliases: ['us'] }];
    const check = checkParamList('addwebhook', specs, params({ us: 'kactl' }));
    expect('params' in check && check.params.get('ua')).toBe('kactl');
    const missing = checkParamList('addwebhook', specs, params({}));
    expect('reply' in missing && missing.reply.fields['message']).toBe('Missing parameter: ua');
  });
});
