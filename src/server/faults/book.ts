/**
 * The faults a running sandbox holds: added, listed and cleared through `/sandbox/faults`, picked
 * by the answer stage for each answer. Kept in memory only: a restarted sandbox starts with none
 * (a fault is a test's momentary condition; the inspector's records of faulted answers stay in
 * the store).
 */
import { LastAnswers } from './last-answers.js';
import { kindInfo, type FaultApi, type FaultSpec } from './spec.js';

export interface Fault extends FaultSpec {
  readonly id: number;
  /** How many answers it changed so far. */
  fired: number;
}

/** What the answer stage knows of an answer when it asks for a fault. */
export interface FaultTarget {
  /** Undefined for the admin routes and unknown paths, which are never faulted. */
  readonly api: FaultApi | undefined;
  readonly type: string | undefined;
  /** The end user, asked for only when a fault filters on one (it costs a lookup). */
  readonly user: () => string | undefined;
  /** Whether the fault can change this answer at all (a replay needs an earlier answer). */
  readonly applies: (fault: Fault) => boolean;
}

/**
 * The faults held, oldest first. `armed` and `remembers` are kept as the book changes, so the
 * answer stage pays one boolean check per answer while no fault is held, and remembers answers
 * for a replay only while a fault that sends them is held.
 */

export class FaultBook {
  private faults: Fault[] = [];
  private nextId = 1;
  /** Some fault is held. */
  armed = false;
  /** Some fault held sends an earlier answer (`replay`, `replay-type`): the fault stage remembers answers. */
  remembers = false;
  /**
   * The answers remembered for those faults. Forgotten when the last of them goes, so a replay
   * fault added later sends only answers given since (what `fault add --help` promises): an audit
   * scenario's replay never finds an answer of an earlier scenario.
   */
  readonly lastAnswers = new LastAnswers();

  constructor(private readonly random: () => number = Math.random) {}

  get size(): number {
    return this.faults.length;
  }

  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, id: this.nextId++, fired: 0 };
    this.faults.push(fault);
    this.changed();
    return fault;
  }

  list(): readonly Fault[] {
    return this.faults;
  }

  /** Removes one fault (by id) or all; how many went. */
  clear(id?: number): number {
    const before = this.faults.length;
    this.faults = id === undefined ? [] : this.faults.filter((fault) => fault.id !== id);
    this.changed();
    return before - this.faults.length;
  }

  private changed(): void {
    this.armed = this.faults.length > 0;
    this.remembers = this.faults.some((fault) => kindInfo(fault.kind).needsPrevious !== undefined);
    if (!this.remembers) this.lastAnswers.clear();
  }

  /**
   * The first fault (oldest first) that matches the answer and fires this time, counted as
   * fired; undefined when none does. A fault with `--times` that has fired them all stays
   * listed (with its count) and fires no more.
   */
  pick(target: FaultTarget): Fault | undefined {
    if (!this.armed || target.api === undefined) return undefined;
    let user: string | undefined | null = null;
    for (const fault of this.faults) {
      if (fault.times !== undefined && fault.fired >= fault.times) continue;
      if (fault.apis !== undefined && !fault.apis.includes(target.api)) continue;
      if (!kindInfo(fault.kind).apis.includes(target.api)) continue;
      if (fault.types !== undefined && (target.type === undefined || !fault.types.includes(target.type))) continue;
      if (fault.user !== undefined) {
        if (user === null) user = target.user();
        if (user !== fault.user) continue;
      }
      if (!target.applies(fault)) continue;
      if (fault.rate !== undefined && this.random() >= fault.rate) continue;
      fault.fired += 1;
      return fault;
    }
    return undefined;
  }
}
