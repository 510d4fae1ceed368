/**
 * The hands a scenario arms the sandbox with (scenario-types.ts, ArmContext): the sandbox's own
 * seller API, a client of its own (the customer's earlier logins), its clock and its faults,
 * through kactl/sandbox's public surface, as a tester would arm it by hand.
 */
import net from 'node:net';
import { ApiFailure } from '../../api/errors.js';
import type { KactlSeller } from '../../api/kactl-seller.js';
import type { Sandbox } from '../types.js';
import type { AuditIdentity } from './identity.js';
import type { ArmContext, AuditApi } from './scenario-types.js';

export interface ArmBase {
  readonly sandbox: Sandbox;
  readonly seller: KactlSeller;
  readonly api: AuditApi;
  readonly customer: AuditIdentity;
  readonly hwid: string | undefined;
  readonly appVersion: string;
  /** Turns the sandbox's clock (its signatures' too) this many ms from real time; 0 puts it back. */
  readonly shiftClock: (ms: number) => void;
}

/** A port on 127.0.0.1 that nothing listens on: taken, then let go. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function armContext(base: ArmBase): ArmContext {
  const { sandbox, seller, api, customer } = base;
  return {
    api,
    customer,
    hwid: base.hwid,
    appVersion: base.appVersion,
    fault: async (kind, extra = {}) => {
      await sandbox.faults.add({ kind, api, ...(extra.arg === undefined ? {} : { arg: extra.arg }), ...(extra.types === undefined ? {} : { type: extra.types }) });
    },
    seller: async (type, params) => {
      await seller.raw(type, params);
    },
    primeLogins: async (hwid, options = {}) => {
      const agoMs = options.agoMs ?? 0;
      // The client lives in the same past as the sandbox's clock, so the answers it checks are fresh to it.
      const client = sandbox.client({ api, now: () => Date.now() - agoMs });
      base.shiftClock(-agoMs);
      try {
        await client.init();
        await client.license({ key: customer.key, ...(hwid === undefined ? {} : { hwid }) });
        await client.init();
        await client.login({ username: customer.username, pass: customer.password, ...(hwid === undefined ? {} : { hwid }) });
      } catch (error) {
        if (error instanceof ApiFailure) throw new ApiFailure(`the customer's first login was refused: ${error.message}`, error.body, error.status);
        throw error;
      } finally {
        base.shiftClock(0);
        await client.close();
      }
    },
    advance: async (step) => {
      await sandbox.clock.advance(step);
    },
    closedUrl: async () => `http://127.0.0.1:${await closedPort()}/api/${api}/`,
  };
}
