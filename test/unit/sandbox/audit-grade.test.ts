/**
 * How `kactl sandbox audit` reads a run (src/sandbox/audit/grade.ts, crash.ts): exit status,
 * `acceptedWhen`, crashes (a signal, an uncaught exception a runtime printed), hangs, and what
 * each means for a scenario that must start, one that must refuse, an informational one and one
 * that did not apply.
 */
import { describe, expect, it } from 'vitest';
import { uncaughtException } from '../../../src/sandbox/audit/crash.js';
import { gradeRun, judgeRun } from '../../../src/sandbox/audit/grade.js';
import type { ProgramRun } from '../../../src/sandbox/audit/program-run.js';
import { AUDIT_SCENARIO_DEFS } from '../../../src/sandbox/audit/catalog.js';
import type { AuditScenarioDef } from '../../../src/sandbox/audit/scenario-types.js';

function run(fields: Partial<ProgramRun>): ProgramRun {
  return { exitCode: 0, signal: null, hung: false, stdout: '', stderr: '', durationMs: 5, ...fields };
}

function def(id: string): AuditScenarioDef {
  const found = AUDIT_SCENARIO_DEFS.find((one) => one.id === id);
  if (found === undefined) throw new Error(`no scenario ${id}`);
  return found;
}

const OPTIONS = { timeoutMs: 10_000 };
const FACTS = { types: ['init', 'license'] };

const PYTHON_TRACEBACK = `Traceback (most recent call last):
  File "/app/main.py", line 12, in <module>
    user = answer["info"]["username"]
KeyError: 'info'
`;
const NODE_UNCAUGHT = `file:///app/main.mjs:9
const name = answer.info.username;
                         ^

TypeError: Cannot read properties of undefined (reading 'username')
    at file:///app/main.mjs:9:26
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)

Node.js v20.19.0
`;
const GO_PANIC = `panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a3b2c]

goroutine 1 [running]:
main.main()
`;

describe('judgeRun', () => {
  it('exit status 0 is accepted, anything else refused', () => {
    expect(judgeRun(run({ exitCode: 0 }), OPTIONS)).toEqual({ outcome: 'accepted', did: 'accepted (exit 0)' });
    expect(judgeRun(run({ exitCode: 3, stderr: 'License refused: Key not found.' }), OPTIONS)).toEqual({ outcome: 'refused', did: 'refused (exit 3)' });
  });

  it('a signal or an uncaught exception is a crash; a message of its own with exit 1 is not', () => {
    expect(judgeRun(run({ exitCode: null, signal: 'SIGSEGV' }), OPTIONS)).toEqual({ outcome: 'crashed', did: 'crashed: killed by SIGSEGV' });
    expect(judgeRun(run({ exitCode: 1, stderr: PYTHON_TRACEBACK }), OPTIONS)).toEqual({ outcome: 'crashed', did: 'crashed: an uncaught Python exception (exit 1)' });
    expect(judgeRun(run({ exitCode: 1, stderr: NODE_UNCAUGHT }), OPTIONS).outcome).toBe('crashed');
    expect(judgeRun(run({ exitCode: 2, stderr: GO_PANIC }), OPTIONS).did).toBe('crashed: a Go panic (exit 2)');
    expect(judgeRun(run({ exitCode: 1, stderr: 'Traceback is a word, at the start of nothing' }), OPTIONS).outcome).toBe('refused');
    // A traceback printed by a program that then exits 0 is its own business.
    expect(judgeRun(run({ exitCode: 0, stderr: PYTHON_TRACEBACK }), OPTIONS).outcome).toBe('accepted');
  });

  it('a run still going at the timeout hung', () => {
    expect(judgeRun(run({ hung: true, exitCode: null }), { timeoutMs: 2500 })).toEqual({ outcome: 'hung', did: 'hung: still running after 2.5 s (ended)' });
  });

  it('with acceptedWhen, stdout decides, whatever the exit status; a global expression is not thrown off by its last match', () => {
    const acceptedWhen = /Welcome/g;
    expect(judgeRun(run({ exitCode: 0, stdout: 'Enter license: Not valid.' }), { ...OPTIONS, acceptedWhen })).toEqual({ outcome: 'refused', did: 'refused (stdout did not match; exit 0)' });
    for (let i = 0; i < 2; i++) expect(judgeRun(run({ exitCode: 1, stdout: 'Welcome, alice.' }), { ...OPTIONS, acceptedWhen }).outcome).toBe('accepted');
  });
});

describe('uncaughtException', () => {
  it('knows the common runtimes', () => {
    expect(uncaughtException('Exception in thread "main" java.lang.NullPointerException\n\tat Main.main(Main.java:5)')).toBe('an uncaught Java exception');
    expect(uncaughtException('Unhandled exception. System.NullReferenceException: Object reference not set')).toBe('an unhandled .NET exception');
    expect(uncaughtException("thread 'main' panicked at src/main.rs:4:5:\nexplicit panic")).toBe('a Rust panic');
    expect(uncaughtException('License refused.')).toBeUndefined();
  });
});

describe('gradeRun', () => {
  const accepted = judgeRun(run({ exitCode: 0 }), OPTIONS);
  const refused = judgeRun(run({ exitCode: 1 }), OPTIONS);
  const crashed = judgeRun(run({ exitCode: null, signal: 'SIGABRT' }), OPTIONS);
  const hung = judgeRun(run({ hung: true }), OPTIONS);

  it('a scenario that must start passes only when it started', () => {
    expect(gradeRun(def('valid-license'), accepted, FACTS)).toMatchObject({ status: 'passed', finding: null });
    expect(gradeRun(def('valid-license'), refused, FACTS)).toMatchObject({ status: 'failed', finding: expect.stringMatching(/^refused a paying customer/) });
    expect(gradeRun(def('valid-license'), crashed, FACTS).status).toBe('failed');
  });

  it('a scenario that must refuse passes on a refusal, and on a crash with a note', () => {
    expect(gradeRun(def('forged'), refused, FACTS)).toMatchObject({ status: 'passed', note: null });
    expect(gradeRun(def('forged'), crashed, FACTS)).toMatchObject({ status: 'passed', note: expect.stringMatching(/^Refused by crashing/) });
    expect(gradeRun(def('forged'), accepted, FACTS)).toMatchObject({ status: 'failed', finding: 'accepted an answer signed by another server: anyone can write a fake server for this program' });
  });

  it('hung fails every scenario, the informational ones and those that would not apply included', () => {
    for (const id of ['valid-license', 'forged', 'replayed-fresh', 'valid-login']) {
      expect(gradeRun(def(id), hung, { types: [] }), id).toMatchObject({ status: 'failed', finding: expect.stringMatching(/^hung on /) });
    }
  });

  it('an informational scenario is shown with its reason, never graded', () => {
    expect(gradeRun(def('replayed-fresh'), accepted, FACTS)).toMatchObject({ status: 'informational', note: expect.stringContaining('cannot be told from a fresh answer') });
    expect(gradeRun(def('emulated-secret'), accepted, FACTS)).toMatchObject({ status: 'informational', note: expect.stringContaining('Only 1.3') });
  });

  it('valid-login applies only to a program that sent a login', () => {
    expect(gradeRun(def('valid-login'), accepted, { types: ['init', 'license'] })).toMatchObject({ status: 'skipped', note: expect.stringContaining('no username and password login') });
    expect(gradeRun(def('valid-login'), accepted, { types: ['init', 'login'] })).toMatchObject({ status: 'passed' });
    expect(gradeRun(def('valid-login'), refused, { types: ['init', 'login'] })).toMatchObject({ status: 'failed' });
  });
});
