/**
 * The fault space of a run, enumerated from the run itself (docs/search.md):
 *
 * - crash (restarted `CRASH_RESTART_MS` later) and pause of each process at each named point its
 *   application passes (afterPoll, afterProcess … with the record's offset), and at each instant it
 *   handles something (a timed fault at that virtual time, which fires before anything else due then);
 * - drop, delay and duplicate of each envelope, named as a fault names it: its RPC, sender and
 *   receiver and its occurrence (`nth`) among envelopes of that kind;
 * - with replicated topics, brokers are processes like any other (crash and restart at each instant
 *   they handle something), and a `delay` also slows a follower's replication link
 *   (`slowReplication`) from each instant its leader appends a batch of a partition it follows.
 *   The KRaft controller is not faulted (the model's controller never fails).
 *
 * Collapsed before anything runs: one timed fault per process and instant (two steps at one instant
 * give one fault); no timed fault of a process that is down or paused then; no fault on an envelope
 * that is lost anyway (sent to a process that is down, or stuck behind a dropped one), nor on a copy a
 * duplicate fault made. Only faults firing after `afterStep` are listed, so a schedule lists its
 * faults in the order they fire and each set of faults is enumerated once.
 */
import { processOf } from '../kernel/faults';
import type { TraceStep } from '../kernel/simulation';
import type { FaultSpec } from '../scenario/schema';
import { envelopeRows } from '../trace/envelopeRows';
import type { PointOccurrence, ScheduleRun } from './runner';

export type FaultKind = 'crash' | 'pause' | 'drop' | 'delay' | 'duplicate';
export const FAULT_KINDS: readonly FaultKind[] = ['crash', 'pause', 'drop', 'delay', 'duplicate'];

/** A crashed process comes back this long after (as the shipped presets do). */
export const CRASH_RESTART_MS = 1000;
/** A delay holds an envelope past the default request.timeout.ms (30 s), so its client gives up on it. */
export const DELAY_MS = 31000;
/**
 * A slow follower: each of its replica fetches (and their answers) takes this much longer — past
 * broker.session.timeout.ms (9 s), so a leader that fails while it is slow is replaced before it
 * catches up — for replica.lag.time.max.ms (30 s), the time it may lag and stay in the ISR.
 */
export const SLOW_REPLICATION_DELAY_MS = 10000;
export const SLOW_REPLICATION_MS = 30000;

export interface FaultSpaceOptions {
  readonly kinds?: readonly FaultKind[];
  /** Only these processes (crash, pause) and envelopes from or to them; all when absent. */
  readonly processes?: readonly string[];
  /** 'points': crash and pause only at named points; 'all': also at every instant a process handles something. */
  readonly timing?: 'points' | 'all';
  /** Also fault background envelopes (heartbeats, idle fetches, a relay's polling). */
  readonly background?: boolean;
}

export interface Candidate {
  readonly fault: FaultSpec;
  readonly kind: FaultKind;
  /** The process crashed or paused, or the envelope's sender. */
  readonly process: string;
  /** The step of the run it was enumerated from at which it fires, and its virtual time. */
  readonly step: number;
  readonly time: number;
  /** A stable key: the same fault enumerated twice has the same key. */
  readonly key: string;
}

/** Pause long enough to outlast the process's session and transaction timeouts (a long GC pause). */
export function pauseMsFor(run: ScheduleRun, process: string): number {
  const r = run.trace.resolved;
  let longest = 30000;
  const consumer = r.consumers[process];
  if (consumer) longest = Math.max(longest, Number(consumer['session.timeout.ms']) || 0);
  for (const [id, p] of Object.entries(r.producers))
    if (processOf(id) === process || id.startsWith(`${process}.`) || id === process)
      longest = Math.max(longest, Number(p['transaction.timeout.ms']) || 0);
  return longest + 1000;
}

const primitive = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

function whereOf(detail: Readonly<Record<string, unknown>>): Record<string, string | number | boolean> | undefined {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(detail)) if (primitive(v)) out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

const whereKey = (w: Record<string, unknown> | undefined): string =>
  w
    ? Object.keys(w)
        .sort()
        .map((k) => `${k}=${String(w[k])}`)
        .join(',')
    : '';

/** Which processes are down or paused just before each step, from the steps' fault labels. */
function unavailableAt(steps: Iterable<TraceStep>): (process: string, step: number) => boolean {
  const intervals = new Map<string, [number, number][]>();
  const open = new Map<string, number>();
  for (const s of steps) {
    if (s.kind !== 'fault') continue;
    const [verb, proc] = s.label.split(' ', 2) as [string, string];
    if (verb === 'crash' || verb === 'pause') open.set(proc, s.i);
    else if ((verb === 'restart' || verb === 'resume') && open.has(proc)) {
      const list = intervals.get(proc) ?? [];
      list.push([open.get(proc) as number, s.i]);
      intervals.set(proc, list);
      open.delete(proc);
    }
  }
  for (const [proc, from] of open) intervals.set(proc, [...(intervals.get(proc) ?? []), [from, Number.POSITIVE_INFINITY]]);
  return (proc, step) => (intervals.get(proc) ?? []).some(([a, b]) => step > a && step <= b);
}

function pointCandidates(run: ScheduleRun, afterStep: number, opts: FaultSpaceOptions, allowed: (p: string) => boolean): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Map<string, number>();
  const crash = opts.kinds?.includes('crash') ?? true;
  const pause = opts.kinds?.includes('pause') ?? true;
  for (const o of run.points as PointOccurrence[]) {
    const process = processOf(o.actor);
    const where = whereOf(o.detail);
    const id = `${process}|${o.point}|${whereKey(where)}`;
    const nth = (seen.get(id) ?? 0) + 1;
    seen.set(id, nth);
    if (o.step <= afterStep || !allowed(process)) continue;
    const base = { target: process, point: o.point, ...(where ? { where } : {}), ...(nth > 1 ? { nth } : {}) };
    if (crash)
      out.push({
        fault: { type: 'crash', ...base, durationMs: CRASH_RESTART_MS },
        kind: 'crash',
        process,
        step: o.step,
        time: o.time,
        key: `crash@${id}#${nth}`,
      });
    if (pause)
      out.push({
        fault: { type: 'pause', ...base, durationMs: pauseMsFor(run, process) },
        kind: 'pause',
        process,
        step: o.step,
        time: o.time,
        key: `pause@${id}#${nth}`,
      });
  }
  return out;
}

const HANDLES = new Set(['deliver', 'timer', 'call', 'disconnected']);

/** The processes a fault may hit: every one but the KRaft controller (modelled as never failing). */
function faultable(run: ScheduleRun): (process: string) => boolean {
  const controllers = new Set(run.trace.built.processes.filter((p) => p.kind === 'controller').map((p) => p.id));
  return (process) => !controllers.has(process);
}

function timedCandidates(run: ScheduleRun, afterStep: number, opts: FaultSpaceOptions, allowed: (p: string) => boolean): Candidate[] {
  const out: Candidate[] = [];
  const steps = run.trace.steps;
  const afterTime = afterStep >= 0 ? (steps.at(afterStep)?.t ?? 0) : 0;
  const unavailable = unavailableAt(steps);
  const done = new Set<string>();
  const canFault = faultable(run);
  const kinds = (['crash', 'pause'] as const).filter((k) => opts.kinds?.includes(k) ?? true);
  for (const s of steps) {
    if (s.i <= afterStep || s.t <= afterTime || s.t === 0 || !HANDLES.has(s.kind)) continue;
    const process = processOf(s.actor);
    const id = `${process}@${s.t}`;
    if (done.has(id) || !allowed(process) || !canFault(process) || unavailable(process, s.i)) continue;
    done.add(id);
    for (const kind of kinds)
      out.push({
        fault: {
          type: kind,
          target: process,
          at: s.t,
          durationMs: kind === 'crash' ? CRASH_RESTART_MS : pauseMsFor(run, process),
        },
        kind,
        process,
        step: s.i,
        time: s.t,
        key: `${kind}@${id}`,
      });
  }
  return out;
}

function envelopeCandidates(run: ScheduleRun, afterStep: number, opts: FaultSpaceOptions, allowed: (p: string) => boolean): Candidate[] {
  const out: Candidate[] = [];
  const sentAt = new Map<number, TraceStep>();
  for (const s of run.trace.steps) for (const id of s.sent) sentAt.set(id, s);
  const counts = new Map<string, number>();
  const kinds = (['drop', 'delay', 'duplicate'] as const).filter((k) => opts.kinds?.includes(k) ?? true);
  for (const e of envelopeRows(run.trace)) {
    if (e.duplicateOf !== null) continue;
    const id = `${e.rpc}|${e.from}>${e.to}`;
    const nth = (counts.get(id) ?? 0) + 1;
    counts.set(id, nth);
    const step = sentAt.get(e.id);
    if (!step || step.i <= afterStep) continue;
    if (e.fate !== 'delivered' || e.fault !== null) continue;
    if (e.background && !opts.background) continue;
    if (!allowed(processOf(e.from)) && !allowed(processOf(e.to))) continue;
    for (const kind of kinds)
      out.push({
        fault: {
          type: kind,
          rpc: e.rpc,
          from: e.from,
          to: e.to,
          ...(nth > 1 ? { nth } : {}),
          ...(kind === 'delay' ? { delayMs: DELAY_MS } : {}),
        },
        kind,
        process: processOf(e.from),
        step: step.i,
        time: step.t,
        key: `${kind}@${id}#${nth}`,
      });
  }
  return out;
}

/**
 * slowReplication of each follower link (the follower's replica fetches slowed), from each instant
 * the leader appends a batch to a replicated partition the follower holds: one per follower and
 * instant, only while the follower is up.
 */
function slowReplicationCandidates(run: ScheduleRun, afterStep: number, allowed: (p: string) => boolean): Candidate[] {
  const topics = run.trace.built.meta.topics;
  const out: Candidate[] = [];
  const steps = run.trace.steps;
  const afterTime = afterStep >= 0 ? (steps.at(afterStep)?.t ?? 0) : 0;
  const unavailable = unavailableAt(steps);
  const done = new Set<string>();
  for (const s of steps) {
    if (s.i <= afterStep || s.t <= afterTime || s.t === 0 || s.facts.length === 0) continue;
    const leader = processOf(s.actor);
    for (const f of s.facts as { kind: string; topic?: string; partition?: number }[]) {
      if (f.kind !== 'append' || f.topic === undefined || f.partition === undefined) continue;
      for (const follower of topics[f.topic]?.replicas?.[f.partition] ?? []) {
        const id = `${follower}@${s.t}`;
        if (follower === leader || done.has(id) || !allowed(follower) || unavailable(follower, s.i)) continue;
        done.add(id);
        out.push({
          fault: {
            type: 'slowReplication',
            target: follower,
            at: s.t,
            durationMs: SLOW_REPLICATION_MS,
            delayMs: SLOW_REPLICATION_DELAY_MS,
          },
          kind: 'delay',
          process: follower,
          step: s.i,
          time: s.t,
          key: `slowReplication@${id}`,
        });
      }
    }
  }
  return out;
}

/** Every fault of the space that fires after `afterStep` of this run, earliest first. */
export function enumerateFaults(run: ScheduleRun, afterStep = -1, opts: FaultSpaceOptions = {}): Candidate[] {
  const only = opts.processes ? new Set(opts.processes) : null;
  const allowed = (p: string) => !only || only.has(p);
  const list = [
    ...pointCandidates(run, afterStep, opts, allowed),
    ...((opts.timing ?? 'all') === 'all' ? timedCandidates(run, afterStep, opts, allowed) : []),
    ...envelopeCandidates(run, afterStep, opts, allowed),
    ...((opts.kinds?.includes('delay') ?? true) ? slowReplicationCandidates(run, afterStep, allowed) : []),
  ];
  // earliest first; at one step, points before envelopes before timed faults, then by key
  const rank = (c: Candidate) =>
    'point' in c.fault && c.fault.point !== undefined ? 0 : 'rpc' in c.fault ? 1 : c.fault.type === 'slowReplication' ? 2 : 3;
  return list.sort((a, b) => a.step - b.step || rank(a) - rank(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
