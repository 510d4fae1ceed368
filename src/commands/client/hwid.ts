/**
 * The HWID a client command sends: `--hwid`, else the profile's `hwid`, else this machine's
 * identifier (src/util/machine-id.ts), as a protected program would send its own. Note for
 * testers: the sandbox, like the real service, refuses HWIDs shorter than 20 characters by
 * default (docs/protocol/client-api.md §6); a Linux machine-id has 32.
 */
import type { Context } from '../../context.js';

/** `flag` is the raw `--hwid` value; an empty one means "send no HWID". */
export async function resolveHwid(ctx: Context, flag: string | undefined): Promise<string | undefined> {
  if (flag !== undefined) return flag.trim() === '' ? undefined : flag.trim();
  const fromProfile = (await ctx.settings()).hwid.value;
  if (fromProfile !== undefined && fromProfile.trim() !== '') return fromProfile.trim();
  const { readMachineId } = await import('../../util/machine-id.js');
  const id = await readMachineId();
  if (id === undefined) {
    ctx.output.warn("Could not read this machine's identifier, so no HWID is sent. Give one with --hwid, or save one: kactl profile add NAME --hwid ID.");
  }
  return id;
}
