/**
 * Where "jump to the next fault / error / marker" lands, and how many there are. Targets are trace
 * steps: where a fault the scenario (or the person) injected takes effect (`injectsFault`: not what
 * follows from one — a message lost on a connection it closed, the restart that ends a crash —
 * which counted one dropped request as two faults), a client error (fact kind 'clientError'), a transaction marker written
 * (fact kind 'append' with a control type). Seeking lands just after the step, so the step is the
 * one being shown and narrated.
 */
import { type Fact, injectsFault, type ListLike, type TraceStep } from '../../sim/views';
import { perTrace } from '../perTrace';

export type JumpKind = 'fault' | 'error' | 'marker';
export const JUMP_KINDS: readonly JumpKind[] = ['fault', 'error', 'marker'];

export type JumpTargets = Readonly<Record<JumpKind, readonly number[]>>;

export function jumpTargets(steps: ListLike<TraceStep>): JumpTargets {
  const fault: number[] = [];
  const error: number[] = [];
  const marker: number[] = [];
  for (const s of steps) {
    if (injectsFault(s)) fault.push(s.i);
    const facts = s.facts as readonly Fact[];
    if (facts.some((f) => f.kind === 'clientError')) error.push(s.i);
    if (facts.some((f) => f.kind === 'append' && f.control !== null)) marker.push(s.i);
  }
  return { fault, error, marker };
}

/** A run's jump targets, computed once per trace. */
export const jumpTargetsOf = perTrace((trace) => jumpTargets(trace.steps));

/** Every notable step, sorted (faults, errors and markers together). */
export function allTargets(t: JumpTargets): number[] {
  return [...new Set([...t.fault, ...t.error, ...t.marker])].sort((a, b) => a - b);
}

/**
 * The position to seek to for the next target after the current position (`step` steps taken,
 * so step index `step - 1` is on screen), or null when there is none.
 */
export function nextPosition(targets: readonly number[], step: number): number | null {
  for (const i of targets) if (i >= step) return i + 1;
  return null;
}

/** The position for the previous target before the one on screen, or null. */
export function previousPosition(targets: readonly number[], step: number): number | null {
  for (let k = targets.length - 1; k >= 0; k--) {
    const i = targets[k] as number;
    if (i + 1 < step) return i + 1;
  }
  return null;
}
