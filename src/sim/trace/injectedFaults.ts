/**
 * Which steps are where a fault the scenario injected takes effect — a crash, a pause, a signal, a
 * message dropped, delayed, duplicated or its connection reset — as opposed to what follows from one:
 * a message the network lost because a process was down or a connection closed ("Produce #7 lost: …",
 * a `lost` step), and the restart or resume that ends a crash or pause. A step's fault lines hold both,
 * so counting steps with any fault line counted one dropped request twice (the drop, then the answer
 * lost on its closed connection). Read from the trace's words only (kernel/transport.ts,
 * processFaults.ts); a slowed replication link changes latencies and marks no step.
 */
import type { TraceStep } from '../kernel/simulation';

/** The network's line for an envelope it lost as it was sent (transport.ts): a consequence, never a fault injected. */
const LOST_AT_SEND = /^\w+ #\d+ lost: /;

/** True when a fault the scenario injected takes effect at this step. */
export function injectsFault(step: Pick<TraceStep, 'kind' | 'label' | 'faults'>): boolean {
  if (step.kind === 'lost') return false;
  if (step.kind === 'fault') return step.label !== 'restart' && step.label !== 'resume';
  return step.faults.some((line) => !LOST_AT_SEND.test(line));
}
