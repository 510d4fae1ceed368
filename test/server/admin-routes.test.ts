/**
 * Every admin route of the sandbox (a fixed path under /sandbox/ in src/server/http/routes.ts)
 * is closed without the admin token and has its rows in src/server/README.md's route table:
 * a new route that skips either step of CONTRIBUTING.md's recipe fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedMethods, FIXED } from '../../src/server/http/routes.js';
import { startTestSandbox } from '../helpers/sandbox.js';

const README = fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'src', 'server', 'README.md'), 'utf8');
/** The first cell of each row of the README's tables: `` `GET /sandbox/clock` ``, `` `GET`/`POST /sandbox/faults` ``. */
const ROUTE_CELLS = README.split('\n').flatMap((line) => (line.startsWith('| `') ? [line.split('|')[1]!] : []));
const ADMIN_ROUTES = Object.entries(FIXED)
  .filter(([routePath]) => routePath.startsWith('/sandbox/'))
  .flatMap(([routePath, route]) => allowedMethods(route).map((method) => ({ method, routePath })));

describe('the admin routes', () => {
  it('are found (an empty list would pass the checks below)', () => {
    expect(ADMIN_ROUTES.length).toBeGreaterThanOrEqual(4);
  });

  it.each(ADMIN_ROUTES)('$method $routePath has its row in src/server/README.md', ({ method, routePath }) => {
    const row = ROUTE_CELLS.find((cell) => cell.includes(`${routePath}\``) && new RegExp(`\\b${method}\\b`).test(cell));
    expect(row, `no row for ${method} ${routePath} in the route table`).toBeDefined();
  });

  it('refuse a request without the admin token, each method', async () => {
    const sb = await startTestSandbox();
    const open: string[] = [];
    for (const { method, routePath } of ADMIN_ROUTES) {
      const res = await sb.request(routePath, { method, ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' } : {}) });
      if (res.status !== 401) open.push(`${method} ${routePath}: HTTP ${res.status}`);
    }
    expect(open).toEqual([]);
  });
});
