/**
 * The typed accessor for checked seller parameters (src/server/seller/checked-params.ts):
 * what the types promise, the check guarantees. The `@ts-expect-error` lines are checked by
 * `npm run lint` (tsc covers test/): asking for an undeclared name must stay a type error.
 */
import { describe, expect, it } from 'vitest';
import { Params } from '../../src/server/dispatch/params.js';
import { checkedParams } from '../../src/server/seller/checked-params.js';
import { checkSellerParams } from '../../src/server/seller/params.js';

function passed(type: string, values: Record<string, string>): Params {
  const check = checkSellerParams(type, new Params(Object.entries(values)));
  if ('reply' in check) throw new Error(`check refused: ${String(check.reply.fields['message'])}`);
  return check.params;
}

describe('checkedParams', () => {
  it('gives required names as strings and optional ones as string or undefined', () => {
    const p = checkedParams(passed('ban', { key: ' ABC-123 ' }), 'ban', { required: ['key'], optional: ['reason'] });
    const key: string = p.key;
    expect(key).toBe('ABC-123'); // the sanitized value, as params.get gives it
    expect(p.reason).toBeUndefined();
    // @ts-expect-error an undeclared name is a type error
    expect(p.note).toBeUndefined();
    // @ts-expect-error an optional name may be undefined, so it is not a plain string
    const reason: string = p.reason;
    expect(reason).toBeUndefined();
    expect(checkedParams(passed('ban', { key: 'K', reason: 'chargeback' }), 'ban', { required: ['key'], optional: ['reason'] }).reason).toBe('chargeback');
  });

  it('gives numbers and flags the catalog checked as number and boolean', () => {
    const names = { required: ['key'], optional: ['userToo'], flags: ['userToo'] } as const;
    const p = checkedParams(passed('del', { key: 'K', userToo: '1' }), 'del', names);
    const userToo: boolean | undefined = p.userToo;
    expect(userToo).toBe(true);
    expect(checkedParams(passed('del', { key: 'K' }), 'del', names).userToo).toBeUndefined();
    const channel = checkedParams(passed('addchannel', { name: 'general', delay: '5' }), 'addchannel', { required: ['name', 'delay'], numbers: ['delay'] });
    const delay: number = channel.delay;
    expect(delay).toBe(5);
    // @ts-expect-error a number is not text
    const text: string = channel.delay;
    expect(text).toBe(5);
    expect(checkedParams(passed('addvar', { name: 'n', data: 'd', authed: '0' }), 'addvar', { required: ['authed'], flags: ['authed'] }).authed).toBe(false);
  });

  it('refuses a number or flag the catalog does not give that kind', () => {
    const params = passed('addchannel', { name: 'general', delay: '5' });
    expect(() => checkedParams(params, 'addchannel', { required: ['name'], numbers: ['name'] })).toThrow('reads name as a number');
    expect(() => checkedParams(params, 'addchannel', { required: ['delay'], flags: ['delay'] })).toThrow('reads delay as a flag');
  });

  it('reads a value sent under a recorded alias by its wire name', () => {
    const p = checkedParams(passed('editsub', { name: 'gold', level: '3' }), 'editsub', { required: ['sub', 'level'] });
    expect(p.sub).toBe('gold');
  });

  it('a missing required parameter never gets past the check to the accessor', () => {
    const check = checkSellerParams('editvar', new Params([['varid', 'motd']]));
    expect('reply' in check && check.reply).toMatchObject({ success: false, fields: { message: expect.stringContaining('data') } });
    // Reaching the accessor without the check is a bug, reported as such rather than read as ''.
    expect(() => checkedParams(new Params([['varid', 'motd']]), 'editvar', { required: ['varid', 'data'] })).toThrow(
      'Seller handler editvar reached without its parameter check (data missing)',
    );
  });

  it('refuses a declaration the catalog does not back', () => {
    const params = passed('ban', { key: 'K', reason: 'chargeback' });
    expect(() => checkedParams(params, 'ban', { required: ['reason'] })).toThrow('declares reason required');
    expect(() => checkedParams(params, 'ban', { optional: ['note'] })).toThrow('declares note optional');
    expect(() => checkedParams(params, 'ban', { optional: ['key'] })).toThrow('declares key optional');
  });
});
