/**
 * The "slow replication link" injection (issue [replication]): a scenario fault
 * `{ type: 'slowReplication', target: 'broker-N', at, durationMs?, delayMs }` that slows one
 * follower's replica fetches from now on (for durationMs, or to the end of the run). Written into
 * the scenario like every other injection, so the run forks here and a share link reproduces it.
 * The engine validates and runs it (src/sim); until it knows the fault, validation refuses it.
 */
import type { At, EditOutcome, FaultSpec, Scenario } from '../../sim';
import { validateScenario } from '../../sim';

export interface SlowReplicationFault {
  readonly type: 'slowReplication';
  /** The follower's broker, "broker-N". */
  readonly target: string;
  readonly at: number;
  readonly durationMs?: number;
  /** Added to each of the follower's replica fetches. */
  readonly delayMs: number;
  readonly note?: string;
}

const MAX_MS = 86400000;
const validMs = (ms: number) => Number.isInteger(ms) && ms >= 1 && ms <= MAX_MS;

/** "Now" for an injection: the millisecond after the current step's (a fault at t runs before every event of t). */
function injectionTime(at: At): number {
  if (at.step <= 0) return 0;
  const s = Math.min(at.step, at.trace.steps.length);
  return (at.trace.steps.at(s - 1)?.t ?? 0) + 1;
}

export interface SlowReplicationRequest {
  readonly broker: string;
  readonly delayMs: number;
  /** Absent: until the end of the run. */
  readonly durationMs?: number;
}

/** The fault and the scenario with it, or why not (before the engine validates it). */
export function slowReplicationEdit(
  s: Scenario,
  at: At,
  req: SlowReplicationRequest,
): { readonly ok: true; readonly scenario: Scenario; readonly fault: SlowReplicationFault } | Extract<EditOutcome, { ok: false }> {
  const info = at.trace.built.processes.find((p) => p.id === req.broker);
  if (!info || info.kind !== 'broker') return { ok: false, code: 'unknown-process', reason: `${req.broker} is not a broker of this run.` };
  if (!validMs(req.delayMs) || (req.durationMs !== undefined && !validMs(req.durationMs)))
    return {
      ok: false,
      code: 'bad-number',
      reason: `the delay and duration must be whole numbers of milliseconds between 1 and ${MAX_MS}`,
    };
  const when = injectionTime(at);
  const note = `slow replication link to ${req.broker}: each replica fetch ${req.delayMs} ms late${
    req.durationMs !== undefined ? ` for ${req.durationMs} ms` : ''
  } (injected at step ${at.step})`;
  const fault: SlowReplicationFault = {
    type: 'slowReplication',
    target: req.broker,
    at: when,
    ...(req.durationMs !== undefined ? { durationMs: req.durationMs } : {}),
    delayMs: req.delayMs,
    note,
  };
  const next = structuredClone(s);
  // the engine's FaultSpec gains this variant with replication (src/sim/scenario/schema.ts)
  next.faults = [...(next.faults ?? []), fault as unknown as FaultSpec];
  return { ok: true, scenario: next, fault };
}

/** The injection: the edit, validated by the engine so the store never gets a scenario that cannot run. */
export function injectSlowReplication(
  s: Scenario,
  at: At & SlowReplicationRequest,
  validate: typeof validateScenario = validateScenario,
): EditOutcome {
  const edit = slowReplicationEdit(s, at, at);
  if (!edit.ok) return edit;
  const v = validate(edit.scenario);
  if (!v.ok) return { ok: false, code: 'invalid', reason: v.errors.map((e) => `${e.path}: ${e.message}`).join('; ') };
  return { ok: true, scenario: v.resolved.scenario, note: edit.fault.note ?? '' };
}
