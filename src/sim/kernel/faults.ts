/**
 * Fault hooks, in the kernel's terms. The scenario layer translates the user's faults into these.
 *
 * - envelope faults act on every envelope when it is sent: drop, delay or duplicate the n-th match,
 *   or reset the connection it travels on (what each means on a connection: network.ts);
 * - timed faults act on a process at a virtual time: crash, restart, pause, resume, or a signal
 *   event to one actor (run the log cleaner, an application action …);
 * - point faults crash a process when its application passes a named point (after poll, after
 *   processing offset 2, before commit …).
 */
import type { ActorId, Envelope, RpcName } from './envelope';

export type ProcessId = string;

export interface EnvelopeMatch {
  rpc?: RpcName | undefined;
  /** A process id ("p1") or an actor id ("p1.producer"). */
  from?: string | undefined;
  to?: string | undefined;
  /** Only envelopes whose payload has these values (shallow equality), e.g. { partition: 1 }; a Produce(Response) also by any one of its partitions. */
  where?: Record<string, string | number | boolean> | undefined;
}

export interface EnvelopeFault {
  kind: 'envelope';
  id: number;
  match: EnvelopeMatch;
  /** 1-based index of the first matching envelope affected, and how many in a row. */
  nth: number;
  count: number;
  /** reset: the connection the envelope travels on breaks as it is sent (both sides see it close). */
  action: 'drop' | 'delay' | 'duplicate' | 'reset';
  delayMs: number;
  label: string;
}

export type TimedAction =
  | { type: 'crash' }
  | { type: 'restart' }
  | { type: 'pause' }
  | { type: 'resume' }
  /** An event for one actor, e.g. { type: 'runCleaner' }. */
  | { type: 'signal'; actor: ActorId; event: Record<string, unknown> & { type: string } };

export interface TimedFault {
  kind: 'timed';
  id: number;
  at: number;
  process: ProcessId;
  action: TimedAction;
  label: string;
}

export interface PointFault {
  kind: 'point';
  id: number;
  process: ProcessId;
  /** Crash the process, or pause it (a long GC pause) for restartAfterMs. */
  action: 'crash' | 'pause';
  point: string;
  /** Only when the point's detail has these values, e.g. { offset: 2 }. */
  where?: Record<string, string | number | boolean> | undefined;
  nth: number;
  /** Restart the crashed (resume the paused) process this long after; null: stays down. */
  restartAfterMs: number | null;
  label: string;
}

/**
 * A slow replication link: from `from` until `until` (virtual ms), the replica Fetch requests the
 * broker process sends and the FetchResponses it receives take delayMs more on the network. Only a
 * broker sends Fetch to a broker, so these are exactly its follower fetches and their answers.
 */
export interface SlowLinkFault {
  kind: 'slowLink';
  id: number;
  process: ProcessId;
  from: number;
  until: number;
  delayMs: number;
  label: string;
}

export type KernelFault = EnvelopeFault | TimedFault | PointFault | SlowLinkFault;

/** Extra latency slow replication links add to an envelope sent at `now`. */
export function slowLinkDelay(
  faults: readonly KernelFault[],
  env: Pick<Envelope, 'rpc' | 'from' | 'to'>,
  now: number,
  isBroker: (process: ProcessId) => boolean,
): number {
  let extra = 0;
  for (const f of faults) {
    if (f.kind !== 'slowLink' || now < f.from || now >= f.until) continue;
    const from = processOf(env.from);
    const to = processOf(env.to);
    if (!isBroker(from) || !isBroker(to)) continue;
    if ((env.rpc === 'Fetch' && from === f.process) || (env.rpc === 'FetchResponse' && to === f.process)) extra += f.delayMs;
  }
  return extra;
}

export function actorInProcess(actor: ActorId, selector: string): boolean {
  // `selector.` is a prefix of actor, read in place (every envelope is matched against every envelope fault)
  return (
    actor === selector || (actor.length > selector.length && actor.charCodeAt(selector.length) === 46 /* . */ && actor.startsWith(selector))
  );
}

/** Actor ids are few and asked for on every step: each one's process is cut once. */
const processes = new Map<ActorId, ProcessId>();

export function processOf(actor: ActorId): ProcessId {
  let p = processes.get(actor);
  if (p === undefined) {
    const dot = actor.indexOf('.');
    p = dot < 0 ? actor : actor.slice(0, dot);
    // a bound on what a long-lived page could gather (ids come from scenarios)
    if (processes.size > 4096) processes.clear();
    processes.set(actor, p);
  }
  return p;
}

function whereMatches(
  where: Record<string, string | number | boolean> | undefined,
  values: Readonly<Record<string, unknown>> | undefined,
): boolean {
  if (!where) return true;
  if (!values) return false;
  if (fieldsMatch(where, values, undefined)) return true;
  // a Produce (ProduceResponse) carries several partitions: the fields of any one of them count as its own
  const parts = values.partitions ?? values.responses;
  if (!Array.isArray(parts)) return false;
  for (const part of parts)
    if (part && typeof part === 'object' && fieldsMatch(where, values, part as Record<string, unknown>)) return true;
  return false;
}

function fieldsMatch(
  where: Record<string, string | number | boolean>,
  values: Readonly<Record<string, unknown>>,
  part: Readonly<Record<string, unknown>> | undefined,
): boolean {
  for (const [k, v] of Object.entries(where)) if (values[k] !== v && part?.[k] !== v) return false;
  return true;
}

export function envelopeMatches(match: EnvelopeMatch, env: Pick<Envelope, 'rpc' | 'from' | 'to' | 'payload'>): boolean {
  if (match.rpc !== undefined && match.rpc !== env.rpc) return false;
  if (match.from !== undefined && !actorInProcess(env.from, match.from)) return false;
  if (match.to !== undefined && !actorInProcess(env.to, match.to)) return false;
  return whereMatches(match.where, env.payload);
}

export function pointMatches(
  fault: PointFault,
  actor: ActorId,
  point: string,
  detail: Readonly<Record<string, unknown>> | undefined,
): boolean {
  return actorInProcess(actor, fault.process) && fault.point === point && whereMatches(fault.where, detail);
}
