/**
 * The steps at which a process went down: a crash fault, a restart fault (which crashes a running
 * process first), and a step whose actor stopped its own process (a broker at the end of its
 * controlled shutdown: a `brokerStopped` fact; the kernel's `exit` effect).
 */
import type { TraceStep } from '../kernel/types';

/** Whether the process of `step.actor` went down at this step (a restart: only if it was running). */
export function stopsProcess(step: Pick<TraceStep, 'kind' | 'label' | 'facts'>, restarts = true): boolean {
  if (step.kind === 'fault') return step.label === 'crash' || (restarts && step.label === 'restart');
  return step.facts.some((f) => f.kind === 'brokerStopped');
}
