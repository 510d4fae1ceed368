/** `kactl schema`: the JSON Schemas the loader validates against, and the examples validate. */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { runMain } from '../../helpers/run-main.js';
import { validate } from '../../../src/state/validate.js';
import type { JsonSchema } from '../../../src/state/schema.js';

const EXAMPLES = path.resolve(__dirname, '../../../examples');

describe('kactl schema', () => {
  it('prints the state and flows schemas, which the example files satisfy', async () => {
    const state = await runMain(['schema']);
    expect(state.code).toBe(0);
    const stateSchema = JSON.parse(state.stdout) as JsonSchema;
    expect(stateSchema.title).toBe('kactl state file');
    expect(Object.keys(stateSchema.properties!)).toEqual(['$schema', 'app', 'subscriptions', 'licenses', 'users', 'variables', 'uservars', 'channels', 'webhooks', 'files', 'blacklists', 'whitelists', 'team']);
    // Every setting of `kactl app set` but the shop secrets (which never go in a state file).
    const app = stateSchema.properties!.app!.properties!;
    expect(app['hash-check']).toEqual({ type: 'boolean' });
    expect(app['min-hwid-length']).toEqual({ type: 'integer', minimum: 0 });
    for (const name of ['token-system', 'vpn-ranges', 'block-leaked-passwords', 'reset-cooldown-seconds', 'web-download-url', 'sellix-day-product', 'msg-token-invalid']) expect(app[name]).toBeDefined();
    expect(Object.keys(app).filter((name) => name.includes('secret'))).toEqual([]);
    const flows = JSON.parse((await runMain(['schema', 'flows'])).stdout) as JsonSchema;
    expect(flows.required).toEqual(['flows']);
    expect(validate(parse(fs.readFileSync(path.join(EXAMPLES, 'kactl.yaml'), 'utf8')), stateSchema)).toEqual([]);
    expect(validate(parse(fs.readFileSync(path.join(EXAMPLES, 'flows.yaml'), 'utf8')), flows)).toEqual([]);
  });

  it('refuses an unknown kind (exit 2)', async () => {
    const result = await runMain(['schema', 'users']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"users" is not a schema: give state or flows.');
  });
});
