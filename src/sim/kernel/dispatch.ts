/**
 * One event to one actor: delivering an envelope (or losing it: its receiver is down or restarted,
 * its connection stalled, was reset or closed), handing an event to an actor (`actor.send`, with the
 * virtual time in it), and carrying out the effects the actor emitted.
 */
import type { KernelCore, StepDraft } from './core';
import type { Effect, FactBase } from './effects';
import { type ActorId, type Envelope, isRequestRpc } from './envelope';
import { type PointFault, type ProcessId, processOf } from './faults';
import { applyPointFault, exitProcess, matchPoint } from './processFaults';
import { clear } from './reusedList';
import { notRead, readOrHold } from './serverReads';
import { breakConnection, cancelRequestTimeout, closeClientConnection, type OnSent, sendEnvelope } from './transport';
import type { StepKind } from './types';

const EMPTY: readonly never[] = Object.freeze([]);

function lostStep(k: KernelCore, env: Envelope, why: string, before: string): true {
  return k.record({
    actor: env.to,
    kind: 'lost',
    label: env.rpc,
    from: env.from,
    envelope: env.id,
    detail: null,
    before,
    after: before,
    sent: EMPTY,
    facts: EMPTY,
    faults: [`${env.rpc} #${env.id} lost: ${why}`],
  });
}

/** False when the envelope, a request, waits unread behind the one its server is serving (serverReads.ts): no step yet. */
export function deliver(k: KernelCore, env: Envelope, fg: boolean, duplicate: boolean, onSent: OnSent): boolean {
  const targetProcess = k.processes.get(processOf(env.to));
  const isRequest = isRequestRpc(env.rpc);
  if (!targetProcess || targetProcess.down || !k.slots.has(env.to)) {
    if (isRequest) notRead(k, env, duplicate);
    if (!duplicate) k.envelopeArrived(env.id, true);
    // a request reaching a dead peer: the connection is refused, and its client notices
    if (isRequest && k.network.inFlight(env.connection, env.generation, env.id)) breakConnection(k, env.connection, 'refused');
    return lostStep(k, env, `${env.to} is down`, 'down');
  }
  if (env.toIncarnation !== null && targetProcess.incarnation !== env.toIncarnation) {
    if (isRequest) notRead(k, env, duplicate);
    if (!duplicate) k.envelopeArrived(env.id, true);
    const why = isRequest ? `${env.to} restarted since it was sent` : 'the connection it belonged to is gone';
    return lostStep(k, env, why, 'down');
  }
  const refusal = isRequest ? notListening(k, env) : null;
  if (refusal !== null) {
    notRead(k, env, duplicate);
    const why = `${env.to} is not accepting connections: ${refusal}`;
    if (!duplicate) k.envelopeArrived(env.id, true, why);
    // as a request to a dead peer: the connection is refused, and its client notices
    if (k.network.inFlight(env.connection, env.generation, env.id)) breakConnection(k, env.connection, 'refused');
    return lostStep(k, env, why, k.slots.get(env.to)?.ref.stateText() ?? 'undefined');
  }
  const arrival = k.network.arrive(env, !isRequest);
  if (!arrival.ok) {
    if (isRequest) notRead(k, env, duplicate);
    if (!duplicate) k.envelopeArrived(env.id, true, arrival.why);
    return lostStep(k, env, arrival.why, k.slots.get(env.to)?.ref.stateText() ?? 'undefined');
  }
  // one request of a connection at a time: this one may wait unread (SocketServer's mute)
  if (isRequest && !readOrHold(k, env, fg, duplicate)) return false;
  if (arrival.completed) cancelRequestTimeout(k, arrival.completed.envelopeId);
  if (!duplicate) k.envelopeArrived(env.id, false);
  if (isRequest) k.openRequests.set(env.id, env);
  return dispatch(
    k,
    env.to,
    'deliver',
    env.rpc,
    env.from,
    env.id,
    null,
    {
      type: env.rpc,
      from: env.from,
      envelopeId: env.id,
      inReplyTo: env.inReplyTo,
      payload: env.payload,
      now: k.now,
    },
    onSent,
  );
}

/** Why the request's process does not accept connections yet (ActorSpec.refusesConnections), or null. */
function notListening(k: KernelCore, env: Envelope): string | null {
  const gate = k.listeners.get(processOf(env.to));
  if (!gate?.spec.refusesConnections) return null;
  return gate.spec.refusesConnections(gate.ref.getSnapshot().context, env.rpc);
}

/** Hands one event to one actor and carries out what it emitted. The event carries the virtual time (`now`). */
export function dispatch(
  k: KernelCore,
  actorId: ActorId,
  kind: StepKind,
  label: string,
  from: ActorId | null,
  envelope: number | null,
  detail: Readonly<Record<string, unknown>> | null,
  event: { type: string } & Record<string, unknown>,
  onSent: OnSent,
  appliedFault?: string,
): true {
  const slot = k.slots.get(actorId);
  if (!slot) throw new Error(`no actor ${actorId}`);
  const step = k.dispatched;
  step.actor = actorId;
  step.kind = kind;
  step.label = label;
  step.from = from;
  step.envelope = envelope;
  step.detail = detail;
  step.before = slot.ref.stateText();
  // one list for every step: nothing emits while the effects are carried out (collecting is null)
  k.effectCount = 0;
  k.collecting = actorId;
  // every event carries the virtual time (`now`): machines have no other clock
  slot.ref.send(event);
  k.collecting = null;
  step.after = slot.ref.stateText();
  applyEffects(k, actorId, slot.process, k.effects, k.effectCount, onSent, step);
  if (appliedFault) step.faults = [appliedFault, ...step.faults];
  return k.record(step);
}

/**
 * Carries out an actor's effects (the first `count` of `effects`) in order, and puts in `step` what
 * it sent, observed and suffered. Those lists are made only when it has some: most steps have no
 * facts and no faults, many send nothing.
 */
function applyEffects(
  k: KernelCore,
  actorId: ActorId,
  process: ProcessId,
  effects: readonly Effect[],
  count: number,
  onSent: OnSent,
  step: StepDraft,
): void {
  let sent: number[] | null = null;
  let facts: FactBase[] | null = null;
  // sendEnvelope appends the faults it applied, in words (to a list the kernel reuses: most steps have none)
  const faults = k.stepFaults;
  clear(faults);
  let crash: PointFault | null = null;
  let exit: { restartAfterMs: number | null; label: string } | null = null;
  const incarnation = k.processes.get(process)?.incarnation ?? 0;
  for (let i = 0; i < count; i++) {
    const effect = effects[i] as Effect;
    switch (effect.type) {
      case 'send': {
        const id = sendEnvelope(k, actorId, effect, faults, onSent);
        if (sent === null) sent = [id];
        else sent.push(id);
        break;
      }
      case 'disconnect':
        for (const r of k.network.clientGone(actorId)) cancelRequestTimeout(k, r.envelopeId);
        break;
      case 'closeConnection':
        closeClientConnection(k, actorId, effect.to);
        break;
      case 'timer': {
        const key = k.timerKey(actorId, effect.key);
        const old = k.timerIndex.get(key);
        if (old) k.cancelSeq(old.seq);
        const fg = !effect.background;
        const seq = k.push(k.now + Math.max(0, effect.delay), {
          kind: 'timer',
          actor: actorId,
          key: effect.key,
          index: key,
          name: effect.name,
          data: effect.data ?? {},
          incarnation,
          fg,
        });
        k.timerIndex.set(key, { seq, fg });
        break;
      }
      case 'cancel': {
        const key = k.timerKey(actorId, effect.key);
        const old = k.timerIndex.get(key);
        if (old) {
          k.cancelSeq(old.seq);
          k.timerIndex.delete(key);
        }
        break;
      }
      case 'call':
        k.push(k.now, {
          kind: 'call',
          actor: effect.to,
          from: actorId,
          name: effect.name,
          args: effect.args ?? {},
          incarnation: k.processes.get(processOf(effect.to))?.incarnation ?? 0,
          fg: true,
        });
        break;
      case 'fact':
        if (facts === null) facts = [effect.fact];
        else facts.push(effect.fact);
        break;
      case 'point':
        k.pointListener?.(actorId, effect.point, effect.detail ?? {});
        if (!crash) crash = matchPoint(k, actorId, effect.point, effect.detail);
        break;
      case 'exit':
        exit = effect;
        break;
    }
  }
  if (crash) {
    faults.push(crash.label);
    applyPointFault(k, crash);
  } else if (exit) exitProcess(k, process, exit.restartAfterMs, exit.label);
  step.sent = sent ?? EMPTY;
  step.facts = facts ?? EMPTY;
  step.faults = faults.length ? faults.slice() : EMPTY;
}
