/**
 * Every audit scenario in running order, and the lists a caller picks from (`--scenarios`,
 * `--skip`): the scenarios of an API, checked names, and what `--list` shows of each.
 */
import { UsageError } from '../../api/errors.js';
import type { AuditApi, AuditScenarioDef } from './scenario-types.js';
import { ANSWER_SCENARIOS } from './scenarios.js';
import { STATE_SCENARIOS } from './scenarios-states.js';

export const AUDIT_SCENARIO_DEFS: readonly AuditScenarioDef[] = [...ANSWER_SCENARIOS, ...STATE_SCENARIOS];

/** What `--list` and `AUDIT_SCENARIOS` tell of a scenario. */
export interface AuditScenarioInfo {
  readonly id: string;
  readonly title: string;
  /** What a sound program does: start (`accepted`) or refuse. */
  readonly expected: 'accepted' | 'refused';
  /** False: its result is shown, not graded (`informational` says why). */
  readonly graded: boolean;
  /** The client APIs it runs on. */
  readonly apis: readonly AuditApi[];
  /** What the sandbox does, per API. */
  readonly sandbox: Readonly<Partial<Record<AuditApi, string>>>;
  readonly sound: string;
  /** The finding when a program does otherwise. */
  readonly finding: string;
  readonly informational: string | null;
}

export function scenarioInfo(def: AuditScenarioDef): AuditScenarioInfo {
  return {
    id: def.id,
    title: def.title,
    expected: def.expected,
    graded: def.graded,
    apis: def.apis,
    sandbox: Object.fromEntries(def.apis.map((api) => [api, def.sandbox(api)])),
    sound: def.sound,
    finding: def.finding,
    informational: def.informational ?? null,
  };
}

/** The scenarios that run on `api`, as `only` and `skip` (lists of ids) pick them; an unknown id is a UsageError. */
export function pickScenarios(api: AuditApi, only: readonly string[] | undefined, skip: readonly string[] | undefined): AuditScenarioDef[] {
  const known = new Set(AUDIT_SCENARIO_DEFS.map((def) => def.id));
  for (const [flag, ids] of [['scenarios', only], ['skip', skip]] as const) {
    const unknown = ids?.find((id) => !known.has(id));
    if (unknown !== undefined) throw new UsageError(`Unknown audit scenario "${unknown.slice(0, 40)}" in ${flag}: use some of ${[...known].join(', ')}.`);
  }
  if (only !== undefined && skip !== undefined) throw new UsageError('Give scenarios or skip, not both.');
  const onApi = AUDIT_SCENARIO_DEFS.filter((def) => def.apis.includes(api));
  const offApi = only?.filter((id) => !onApi.some((def) => def.id === id)) ?? [];
  if (offApi.length > 0) throw new UsageError(`${offApi.join(', ')} ${offApi.length === 1 ? 'does' : 'do'} not run on client API ${api}; kactl sandbox audit --list says where each runs.`);
  const picked = onApi.filter((def) => (only === undefined || only.includes(def.id)) && !(skip ?? []).includes(def.id));
  if (picked.length === 0) throw new UsageError('No scenario is left to run.');
  return picked;
}

/** Every scenario as `--list` shows it (kactl/sandbox's `AUDIT_SCENARIOS`). */
export const AUDIT_SCENARIOS: readonly AuditScenarioInfo[] = AUDIT_SCENARIO_DEFS.map(scenarioInfo);
