/**
 * A replace where the seller API has no edit: the record is deleted and made again. The delete
 * never comes before the server has shown it accepts the new record: the new record is first
 * made under another name (the probe) and deleted again. If the final create still fails, the
 * old record is put back when kactl knows it whole; either way the failure says what was
 * deleted (HalfDoneReplace), and the run's report counts it.
 */
import { ApiFailure, KactlError } from '../api/errors.js';
import type { Action, ActionIO, Call, Section } from './actions.js';

/** A replace that deleted the old record and could not make the new one. */
export class HalfDoneReplace extends KactlError {
  constructor(
    /** `webhook payhook`: what was deleted. */
    readonly deleted: string,
    /** True when the old record was put back as it was. */
    readonly putBack: boolean,
    message: string,
  ) {
    super(message, 'FAILURE');
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}

export interface ReplaceSpec {
  section: Section;
  id: string;
  detail: string[];
  /** The new record made under another name first, and deleted again. */
  probe?: { create: Call; remove: Call; id: string };
  remove: Call;
  create: Call;
  /** The old record, made again if the create fails; absent when kactl cannot know it whole. */
  putBack?: Call;
  /** Why the old record cannot be put back (when there is no `putBack`). */
  noPutBack?: string;
  /** `webhook payhook`, for messages. */
  what: string;
  /** Calls after the create (e.g. a ban), part of the same record. */
  then?: Call[];
}

/** The probe's create answers with the key it made (license probes have a random mask). */
function probeRemoval(spec: NonNullable<ReplaceSpec['probe']>, answer: Record<string, unknown>): Call {
  const key = typeof answer.key === 'string' ? answer.key : undefined;
  return key === undefined ? spec.remove : { ...spec.remove, params: { ...spec.remove.params, key } };
}

export function replaceAction(spec: ReplaceSpec): Action {
  const calls = [...(spec.probe ? [spec.probe.create, spec.probe.remove] : []), spec.remove, spec.create, ...(spec.then ?? [])];
  return {
    section: spec.section,
    verb: 'replace',
    id: spec.id,
    detail: spec.detail,
    calls,
    async run(io: ActionIO) {
      if (spec.probe) {
        // A refusal here changes nothing: the old record is still there.
        const answer = await io.send(spec.probe.create);
        try {
          await io.send(probeRemoval(spec.probe, answer));
        } catch (error) {
          if (error instanceof ApiFailure) throw new ApiFailure(`the test copy ${spec.probe.id} was made but could not be deleted (${reason(error)}); delete it by hand`, error.body, error.status);
          throw error;
        }
      }
      await io.send(spec.remove);
      try {
        await io.send(spec.create);
        for (const call of spec.then ?? []) await io.send(call);
      } catch (error) {
        if (!(error instanceof KactlError)) throw error;
        if (spec.putBack) {
          try {
            await io.send(spec.putBack);
            throw new HalfDoneReplace(spec.what, true, `${spec.what} was deleted, the new one was refused (${reason(error)}), and the old one was put back as it was.`);
          } catch (again) {
            if (again instanceof HalfDoneReplace || !(again instanceof KactlError)) throw again;
            throw new HalfDoneReplace(spec.what, false, `${spec.what} was deleted, the new one was refused (${reason(error)}), and putting the old one back failed too (${reason(again)}).`);
          }
        }
        throw new HalfDoneReplace(spec.what, false, `${spec.what} was deleted and the new one was refused (${reason(error)}); ${spec.noPutBack ?? 'the old one could not be put back'}.`);
      }
    },
  };
}
