/**
 * Answers printed by the kind the catalog gives them: lists in every format, empty lists
 * however the server says so, records, bare values, messages, and failures.
 */
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { fakeSeller, json } from './helpers.js';

const KEYS = [
  { id: '1', key: 'AAAA-1111', note: 'a "quoted", note', expires: '86400', status: 'Not Used', level: '1', genby: 'SellerAPI', gendate: '1700000000', usedon: null, usedby: null, app: 'APP-SECRET', banned: null },
  { id: '2', key: 'BBBB-2222', note: null, expires: '3600', status: 'Used', level: '2', genby: 'SellerAPI', gendate: '1700000100', usedon: '1700000200', usedby: 'alice', app: 'APP-SECRET', banned: null },
];

async function keysServer() {
  return fakeSeller({ fetchallkeys: () => json({ success: true, message: 'Successfully Retrieved Licenses', keys: KEYS }) });
}

describe('list output', () => {
  it('--json prints the server rows as a JSON array', async () => {
    const seller = await keysServer();
    const { code, stdout } = await seller.run(['licenses', 'list', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(KEYS);
  });

  it('-o csv prints the catalog columns with dates in ISO 8601 and durations in seconds', async () => {
    const seller = await keysServer();
    const { code, stdout } = await seller.run(['licenses', 'list', '-o', 'csv']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\r\n');
    // kactl's names (23.10): the table's labels in snake case, not the wire's genby/gendate/expires.
    expect(lines[0]).toBe('key,status,level,duration,note,created_by,created,used_by,used_on,ban_reason');
    expect(lines[1]).toBe('AAAA-1111,Not Used,1,86400,"a ""quoted"", note",SellerAPI,2023-11-14T22:13:20Z,,,');
    expect(lines[2]).toContain('BBBB-2222,Used,2,3600,,SellerAPI,2023-11-14T22:15:00Z,alice,2023-11-14T22:16:40Z,');
    expect(stdout).not.toContain('APP-SECRET');
  });

  it('-o yaml prints what --json prints, as YAML', async () => {
    const seller = await keysServer();
    const { code, stdout } = await seller.run(['licenses', 'list', '-o', 'yaml']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^- id: "1"\n {2}key: AAAA-1111\n/);
    expect(parseYaml(stdout)).toEqual(KEYS);
    const chosen = await seller.run(['licenses', 'list', '-o', 'yaml', '--columns', 'key,used_by']);
    expect(parseYaml(chosen.stdout)).toEqual(JSON.parse((await seller.run(['licenses', 'list', '--json', 'key,used_by'])).stdout));
  });

  it('-o ndjson prints one server row a line', async () => {
    const seller = await keysServer();
    const { stdout } = await seller.run(['licenses', 'list', '-o', 'ndjson']);
    expect(stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual(KEYS);
  });

  it('piped with no format prints tab-separated rows under a header row of kactl field names; --no-header drops it', async () => {
    const seller = await keysServer();
    const { stdout } = await seller.run(['licenses', 'ls']);
    const rows = stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(rows).toHaveLength(3);
    expect(rows[0]!.slice(0, 4)).toEqual(['key', 'status', 'level', 'duration']);
    expect(rows[1]!.slice(0, 4)).toEqual(['AAAA-1111', 'Not Used', '1', '86400']);
    const bare = await seller.run(['licenses', 'ls', '--no-header']);
    expect(bare.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0])).toEqual(['AAAA-1111', rows[2]![0]]);
    const csv = await seller.run(['--no-header', 'licenses', 'ls', '-o', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toMatch(/^AAAA-1111,/);
  });

  it('on a terminal prints a table with headers, dates and durations for people', async () => {
    const seller = await keysServer();
    const { stdout } = await seller.run(['licenses', 'list'], { stdoutTTY: true });
    expect(stdout).toMatch(/KEY\s+STATUS\s+LEVEL\s+DURATION\s+NOTE\s+CREATED BY\s+CREATED/);
    expect(stdout).toContain('1d');
    expect(stdout).toContain('1h');
    expect(stdout).toMatch(/2023-11-1[45] \d\d:\d\d/);
  });

  it.each([
    ['HTTP 406 with the empty message', () => json({ success: false, message: 'No keys found' }, 406)],
    ['HTTP 400 with the empty message', () => json({ success: false, message: 'No keys found' }, 400)],
    ['HTTP 200 with success:false and the empty message', () => json({ success: false, message: 'No keys found' })],
    ['an empty array', () => json({ success: true, message: 'Successfully Retrieved Licenses', keys: [] })],
  ])('an empty list (%s) is an empty result with exit 0', async (_what, answer) => {
    const seller = await fakeSeller({ fetchallkeys: answer });
    const asJson = await seller.run(['licenses', 'list', '--json']);
    expect(asJson.code, asJson.stderr).toBe(0);
    expect(JSON.parse(asJson.stdout)).toEqual([]);
    const asCsv = await seller.run(['licenses', 'list', '-o', 'csv']);
    expect(asCsv.code).toBe(0);
    expect(asCsv.stdout.trimEnd()).toBe('key,status,level,duration,note,created_by,created,used_by,used_on,ban_reason');
    const onTerminal = await seller.run(['licenses', 'list'], { stdoutTTY: true });
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.stdout).toBe('');
    expect(onTerminal.stderr).toContain('No results.');
  });

  it('says a paused subscription is paused, with the time it keeps, instead of a 1970 date', async () => {
    const subs = [
      { id: 1, user: 'alice', subscription: 'default', expiry: '1700000000', key: 'K1', paused: 0 },
      { id: 2, user: 'alice', subscription: 'premium', expiry: '90000', key: 'K2', paused: 1 },
    ];
    const seller = await fakeSeller({ usersub: () => json({ success: true, message: 'Successfully Retrieved User Subscription', subs }) });
    const table = (await seller.run(['users', 'subscriptions', 'alice'], { stdoutTTY: true })).stdout;
    expect(table).toContain('paused, 1d 1h left');
    expect(table).not.toMatch(/1970/);
    const csv = (await seller.run(['users', 'subscriptions', 'alice', '-o', 'csv'])).stdout;
    expect(csv).toContain('paused, 1d 1h left');
    expect(csv).not.toMatch(/1970/);
    // JSON keeps the server's value: the remaining seconds.
    expect(JSON.parse((await seller.run(['users', 'subscriptions', 'alice', '--json'])).stdout)[1].expiry).toBe('90000');
  });

  it('reads usersub\'s `subs: "not_found"` as an empty list', async () => {
    const seller = await fakeSeller({ usersub: () => json({ success: true, message: 'Successfully Retrieved User Subscription', subs: 'not_found' }) });
    const { code, stdout } = await seller.run(['users', 'subscriptions', 'alice', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([]);
  });

  it('shows usernames given as plain strings (older servers) as rows', async () => {
    const seller = await fakeSeller({ fetchallusernames: () => json({ success: true, message: 'ok', usernames: ['alice', 'bob'] }) });
    const { stdout } = await seller.run(['users', 'list', '--usernames', '-o', 'csv']);
    expect(stdout.trimEnd().split('\r\n')).toEqual(['username', 'alice', 'bob']);
  });
});

describe('a record with lists inside it (users get)', () => {
  const USER = {
    success: true,
    message: 'User data retrieved',
    username: 'alice',
    subscriptions: [{ subscription: 'default', expiry: '1900000000', key: 'KEY-1', paused: 0 }],
    uservars: [{ name: 'color', data: 'blue' }],
    ip: '10.0.0.1',
    hwid: 'HWID-1',
    createdate: '1700000000',
    lastlogin: '1700000100',
    cooldown: null,
    banned: null,
  };
  async function userServer(answer: Record<string, unknown> = USER) {
    return fakeSeller({ userdata: () => json(answer) });
  }

  it('piped, prints the lists as the rows `users subscriptions` prints, under their names, never as a JSON cell', async () => {
    const seller = await userServer();
    const { code, stdout } = await seller.run(['users', 'get', 'alice']);
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/\[\{|\{"/);
    const [record, ...sections] = stdout.split('\n\n');
    expect(record!.split('\n').map((line) => line.split('\t')[0])).toEqual(['username', 'ip', 'hwid', 'createdate', 'lastlogin', 'cooldown', 'banned']);
    expect(sections).toEqual(['subscriptions:\nsubscription\texpiry\tkey\tpaused\ndefault\t2030-03-17T17:46:40Z\tKEY-1\tno', 'variables:\nname\tdata\ncolor\tblue\n']);
    // The subscriptions' rows are those `users subscriptions` prints.
    const own = await fakeSeller({ usersub: () => json({ success: true, message: 'ok', subs: USER.subscriptions }) });
    expect((await own.run(['users', 'subscriptions', 'alice'])).stdout).toBe(`${sections[0]!.split('\n').slice(1).join('\n')}\n`);
  });

  it('-o csv the same way; an empty list is its header alone', async () => {
    const seller = await userServer({ ...USER, uservars: [] });
    const { stdout } = await seller.run(['users', 'get', 'alice', '-o', 'csv']);
    expect(stdout).not.toMatch(/\[/);
    expect(stdout.split('\n\n').slice(1)).toEqual(['subscriptions:\nsubscription,expiry,key,paused\r\ndefault,2030-03-17T17:46:40Z,KEY-1,no\r', 'variables:\nname,data\r\n']);
  });

  it('-o yaml and --json keep the record whole', async () => {
    const seller = await userServer();
    expect(parseYaml((await seller.run(['users', 'get', 'alice', '-o', 'yaml'])).stdout)).toEqual(USER);
    expect(JSON.parse((await seller.run(['users', 'get', 'alice', '--json'])).stdout)).toEqual(USER);
  });
});

describe('other answers', () => {
  it('prints a record of the catalog fields, with --json the whole body', async () => {
    const body = { success: true, duration: '86400', note: null, status: 'Used', level: '1', createdby: 'SellerAPI', usedby: 'alice', usedon: '1700000000', creationdate: '1700000000' };
    const seller = await fakeSeller({ info: () => json(body) });
    const piped = await seller.run(['licenses', 'get', 'KEY']);
    expect(piped.stdout).toContain('status\tUsed\n');
    // Piped records use machine cells, like piped lists: seconds and ISO dates.
    expect(piped.stdout).toContain('duration\t86400\n');
    expect(JSON.parse((await seller.run(['licenses', 'info', 'KEY', '--json'])).stdout)).toEqual(body);
  });

  it('prints an object answer from under its key', async () => {
    const seller = await fakeSeller({ appdetails: () => json({ success: true, message: 'Fetched', appdetails: { name: 'MyApp', ownerid: 'AbCdEf1234', secret: 's'.repeat(64), version: '1.0' } }) });
    const { stdout } = await seller.run(['app', 'details', '-o', 'csv']);
    expect(stdout.trimEnd().split('\r\n')).toEqual(['name,ownerid,version,secret', `MyApp,AbCdEf1234,1.0,${'s'.repeat(64)}`]);
  });

  it('prints a single value bare on stdout, the server JSON with --json', async () => {
    const seller = await fakeSeller({ retrvvar: () => json({ success: true, message: 'Welcome back', authed: 'false' }) });
    const plain = await seller.run(['vars', 'get', 'motd']);
    expect(plain.stdout).toBe('Welcome back\n');
    expect(plain.stderr).toBe('');
    expect(JSON.parse((await seller.run(['vars', 'get', 'motd', '--json'])).stdout)).toEqual({ success: true, message: 'Welcome back', authed: 'false' });
  });

  it('says what a change did on stderr and prints its value on stdout (files upload)', async () => {
    const seller = await fakeSeller({ upload: () => json({ success: true, message: 'File ID 482913 Uploaded Successfully', id: '482913' }) });
    const { stdout, stderr } = await seller.run(['files', 'upload', '--url', 'https://example.com/a.zip']);
    expect(stdout).toBe('482913\n');
    expect(stderr).toContain('File ID 482913 Uploaded Successfully');
  });

  it('takes the upload id from the message when the server sends no id field (the 2022 seller API)', async () => {
    const seller = await fakeSeller({ upload: () => json({ success: true, message: 'File ID 482913 Uploaded Successfully' }) });
    const plain = await seller.run(['files', 'upload', '--url', 'https://example.com/a.zip']);
    expect([plain.code, plain.stdout]).toEqual([0, '482913\n']);
    expect(plain.stderr).toContain('File ID 482913 Uploaded Successfully');
    const asJson = await seller.run(['files', 'upload', '--url', 'https://example.com/a.zip', '--json']);
    expect([asJson.code, JSON.parse(asJson.stdout)]).toEqual([0, { success: true, message: 'File ID 482913 Uploaded Successfully', id: '482913' }]);
  });

  it('still refuses an upload success with neither an id field nor the id in its message (exit 4)', async () => {
    const seller = await fakeSeller({ upload: () => json({ success: true, message: 'Uploaded' }) });
    const { code, stdout, stderr } = await seller.run(['files', 'upload', '--url', 'https://example.com/a.zip']);
    expect([code, stdout]).toEqual([4, '']);
    expect(stderr).toContain('it has no "id"');
  });

  it('prints a bare message as a success line on stderr, nothing on stdout', async () => {
    const seller = await fakeSeller({ verify: () => json({ success: true, message: 'Key Successfully Verified' }) });
    const { code, stdout, stderr } = await seller.run(['licenses', 'verify', 'KEY']);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toBe('Key Successfully Verified\n');
    expect(JSON.parse((await seller.run(['licenses', 'verify', 'KEY', '--json'])).stdout)).toEqual({ success: true, message: 'Key Successfully Verified' });
  });

  it("shows the server's failure message verbatim with exit 1 (and its JSON with --json)", async () => {
    const seller = await fakeSeller({ verify: () => json({ success: false, message: 'Key Not Found' }, 406) });
    const plain = await seller.run(['licenses', 'verify', 'NOPE']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('Key Not Found');
    const asJson = await seller.run(['licenses', 'verify', 'NOPE', '--json']);
    expect(asJson.code).toBe(1);
    // The one --json error shape: the server's answer, plus the exit code and the sentence.
    expect(JSON.parse(asJson.stdout)).toEqual({ success: false, message: 'Key Not Found', error: { code: 1, message: 'Key Not Found' } });
  });
});
