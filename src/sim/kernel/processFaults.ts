/**
 * Faults on processes: crash (clients lose everything in memory, brokers and coordinators keep
 * their logs; connections it served break, its timers and calls die with it), restart, pause and
 * resume (a paused process holds its events), a signal to one actor, and crash or pause points an
 * application passes.
 */
import type { KernelCore } from './core';
import type { ActorId } from './envelope';
import { type PointFault, type ProcessId, pointMatches, processOf, type TimedFault } from './faults';
import { dropUnread } from './serverReads';
import { breakConnection, cancelRequestTimeout } from './transport';

const EMPTY: readonly never[] = Object.freeze([]);

/** A timed fault comes due: its step. `dispatch` hands a signal to its actor. */
export function applyTimedFault(
  k: KernelCore,
  fault: TimedFault,
  dispatchSignal: (actor: ActorId, event: Record<string, unknown> & { type: string }, label: string) => true,
): true {
  const action = fault.action;
  switch (action.type) {
    case 'crash':
      return processFault(k, fault.process, fault.label, 'crash', () => crashProcess(k, fault.process));
    case 'restart':
      return processFault(k, fault.process, fault.label, 'restart', () => restartProcess(k, fault.process));
    case 'pause':
      return processFault(k, fault.process, fault.label, 'pause', () => {
        const proc = k.processes.get(fault.process);
        if (proc && !proc.down) proc.paused = true;
      });
    case 'resume':
      return processFault(k, fault.process, fault.label, 'resume', () => resumeProcess(k, fault.process));
    case 'signal': {
      const proc = k.processes.get(processOf(action.actor));
      if (!proc || proc.down)
        return processFault(k, fault.process, `${fault.label} (not applied: ${action.actor} is down)`, 'signal', () => {});
      return dispatchSignal(action.actor, action.event, fault.label);
    }
  }
}

/** The step of a fault on a process: its state before and after, in words. */
export function processFault(k: KernelCore, process: ProcessId, faultLabel: string, label: string, apply: () => void): true {
  const describe = (): string => {
    const p = k.processes.get(process);
    return p ? (p.down ? 'down' : p.paused ? 'paused' : 'up') : 'unknown';
  };
  const before = describe();
  apply();
  return k.record({
    actor: process,
    kind: 'fault',
    label,
    from: null,
    envelope: null,
    detail: null,
    before,
    after: describe(),
    sent: EMPTY,
    facts: EMPTY,
    faults: [faultLabel],
  });
}

export function crashProcess(k: KernelCore, process: ProcessId): void {
  const proc = k.processes.get(process);
  if (!proc || proc.down) return;
  for (const slot of k.slots.values()) {
    if (slot.process !== process) continue;
    k.collecting = null;
    slot.ref.send({ type: 'crash' });
  }
  proc.down = true;
  proc.paused = false;
  for (const d of proc.deferred) {
    if (d.item.fg) k.deferredForeground--;
    if (d.item.kind === 'deliver') k.envelopeLostWhileHeld(d.item.envelope.id);
  }
  proc.deferred = [];
  proc.incarnation++;
  for (const [id, env] of [...k.openRequests]) if (processOf(env.to) === process) k.openRequests.delete(id);
  for (const slot of k.slots.values()) {
    if (slot.process !== process) continue;
    // its own connections are gone with it; requests it was holding (a join phase, a parked
    // fetch …) or that are on their way to it: their clients see the connection break
    // what it sent before it went is still read by its servers, one request at a time (serverReads.ts)
    for (const r of k.network.clientGone(slot.spec.id)) cancelRequestTimeout(k, r.envelopeId);
    for (const c of k.network.servedBy(slot.spec.id)) {
      dropUnread(k, c.key);
      breakConnection(k, c.key, 'peer-down');
    }
  }
  // its timers and pending calls die with it
  for (const q of k.queue.toArray()) {
    const it = q.item;
    if ((it.kind === 'timer' || it.kind === 'call') && processOf(it.actor) === process) k.cancelSeq(q.seq);
  }
  for (const key of [...k.timerIndex.keys()]) if (processOf(key.slice(0, key.indexOf('|'))) === process) k.timerIndex.delete(key);
}

export function restartProcess(k: KernelCore, process: ProcessId): void {
  const proc = k.processes.get(process);
  if (!proc) return;
  if (!proc.down) crashProcess(k, process);
  proc.down = false;
  const boots = proc.deferred;
  proc.deferred = [];
  // The restart calls (and then the boots it missed while down) come before anything else at this
  // instant: an envelope that reaches the process now must find its actors restarted, not still
  // down — where it would vanish without an answer or a disconnect.
  for (const slot of k.slots.values()) {
    if (slot.process !== process) continue;
    k.pushFirst(k.now, {
      kind: 'call',
      actor: slot.spec.id,
      from: process,
      name: 'restart',
      args: {},
      incarnation: proc.incarnation,
      fg: true,
    });
  }
  for (const b of boots) k.pushFirst(k.now, b.item);
}

export function resumeProcess(k: KernelCore, process: ProcessId): void {
  const proc = k.processes.get(process);
  if (!proc || !proc.paused) return;
  proc.paused = false;
  const deferred = proc.deferred;
  proc.deferred = [];
  for (const d of deferred) {
    if (d.item.fg) k.deferredForeground--;
    // cancelled while it was held (a timer re-armed or cancelled, a request answered)
    if (k.cancelled.delete(d.seq)) continue;
    // Held events come back at `now` under the seq they were first queued with: the queue orders
    // equal times by seq, so they still come before anything scheduled after them — an envelope
    // sent to this process later on the same connection cannot overtake a held one (TCP keeps
    // order), and a timer or request timeout keeps the seq its key names (cancelling reaches it).
    k.queue.push({ time: k.now, seq: d.seq, item: d.item });
    if (d.item.fg) {
      k.foreground.add(d.seq);
      k.quietDeadline = null;
    }
  }
}

/** The point fault an application's point triggers now (its n-th match), if any. */
export function matchPoint(k: KernelCore, actorId: ActorId, point: string, detail: Record<string, unknown> | undefined): PointFault | null {
  for (const f of k.options.faults) {
    if (f.kind !== 'point' || !pointMatches(f, actorId, point, detail)) continue;
    const n = (k.faultCounters.get(f.id) ?? 0) + 1;
    k.faultCounters.set(f.id, n);
    if (n === f.nth) return f;
  }
  return null;
}

/**
 * A process stops itself (an `exit` effect: a broker's controlled shutdown completed): down as at a
 * crash, and restarted `restartAfterMs` later when given. Not a fault: the step that exits says why.
 */
export function exitProcess(k: KernelCore, process: ProcessId, restartAfterMs: number | null, label: string): void {
  crashProcess(k, process);
  if (restartAfterMs !== null)
    k.push(k.now + restartAfterMs, {
      kind: 'restart',
      process,
      label: `restart ${process} ${restartAfterMs} ms after: ${label}`,
      fg: true,
    });
}

/** A point fault fired during a step: pause the process (and resume it later) or crash it (and restart it later). */
export function applyPointFault(k: KernelCore, crash: PointFault): void {
  if (crash.action === 'pause') {
    const proc = k.processes.get(crash.process);
    if (proc && !proc.down) proc.paused = true;
    k.push(k.now + (crash.restartAfterMs ?? 0), {
      kind: 'resume',
      process: crash.process,
      label: `resume ${crash.process} ${crash.restartAfterMs ?? 0} ms after: ${crash.label}`,
      fg: true,
    });
  } else {
    crashProcess(k, crash.process);
    if (crash.restartAfterMs !== null)
      k.push(k.now + crash.restartAfterMs, {
        kind: 'restart',
        process: crash.process,
        label: `restart ${crash.process} ${crash.restartAfterMs} ms after: ${crash.label}`,
        fg: true,
      });
  }
}
