/**
 * The kernel's side of the network: sending an envelope (fault hooks, route, delivery time, the
 * request's timeout) and what happens when a connection stalls, is reset or breaks (its client's
 * requests in flight complete as disconnects, oldest first). Where an envelope may go and when is
 * network.ts's to decide; queueing is the kernel's.
 */
import type { KernelCore } from './core';
import type { Effect } from './effects';
import { type ActorId, type Envelope, type EnvelopeRecord, isRequestRpc } from './envelope';
import { type EnvelopeFault, envelopeMatches, processOf, slowLinkDelay } from './faults';

/** Brokers are the processes broker-0, broker-1 … (scenario/build.ts). */
const isBrokerProcess = (p: string): boolean => p.startsWith('broker-');

import { type CloseReason, connectionName, type InFlightRequest, type Route } from './network';
import { answered, dropUnread } from './serverReads';

/** Told of every envelope the kernel sends: where it goes, when it arrives, what became of it. */
export type OnSent = (
  env: Envelope,
  deliverAt: number | null,
  fate: EnvelopeRecord['fate'],
  fault: string | null,
  timeoutMs: number | null,
) => void;

/**
 * Sends an envelope for `from`: picks the fault it matches, asks the network for its route, queues
 * its delivery (and a duplicate's) and, for a request, arms its timeout. Faults applied are added
 * to `faults` in words; `onSent` is told what became of the envelope.
 */
export function sendEnvelope(
  k: KernelCore,
  from: ActorId,
  effect: Extract<Effect, { type: 'send' }>,
  faults: string[],
  onSent: OnSent,
): number {
  const id = k.envelopeCounter++;
  const fromProcess = k.processes.get(processOf(from));
  const isRequest = isRequestRpc(effect.rpc);
  let toIncarnation: number | null = null;
  let requestGeneration: number | null = null;
  let answering: Envelope | undefined;
  if (effect.inReplyTo !== undefined) {
    const request = k.openRequests.get(effect.inReplyTo);
    answering = request;
    toIncarnation = request?.fromIncarnation ?? null;
    requestGeneration = request?.generation ?? null;
    k.openRequests.delete(effect.inReplyTo);
  } else if (isRequest) toIncarnation = k.processes.get(processOf(effect.to))?.incarnation ?? null;
  const expectResponse = isRequest && effect.expectResponse !== false;
  if (expectResponse && !(typeof effect.timeoutMs === 'number' && effect.timeoutMs >= 0 && Number.isFinite(effect.timeoutMs)))
    throw new Error(`${from} sent ${effect.rpc} without a request timeout: every request needs one (NetworkClient)`);
  // the connection it travels on (its client's to its server's node) and that connection's generation:
  // the current one, or for a response the one its request came on (network.ts routes it by them)
  const connection = isRequest ? k.connectionOf(from, effect.to) : k.connectionOf(effect.to, from);
  // A replica fetch (or its answer) on a link the person slowed is the fault's own traffic: it keeps the
  // run going until it arrives, though an idle fetch is background otherwise — a run must not end
  // while the fetch that would move the high watermark is still on its slowed way.
  const slowedMs = slowLinkDelay(k.options.faults, { rpc: effect.rpc, from, to: effect.to }, k.now, isBrokerProcess);
  // spelled out rather than spread: one shape for every envelope
  const env: Envelope = {
    id,
    rpc: effect.rpc,
    from,
    to: effect.to,
    payload: effect.payload,
    inReplyTo: effect.inReplyTo ?? null,
    background: (effect.background ?? false) && slowedMs === 0,
    fromIncarnation: fromProcess?.incarnation ?? 0,
    toIncarnation,
    sentAt: k.now,
    sentStep: k.stepIndex,
    connection,
    generation: requestGeneration ?? k.network.generationOf(connection),
  };
  // fault hooks: the first envelope fault whose n-th match this is
  let fault: EnvelopeFault | null = null;
  for (const f of k.options.faults) {
    if (f.kind !== 'envelope' || !envelopeMatches(f.match, env)) continue;
    const n = (k.faultCounters.get(f.id) ?? 0) + 1;
    k.faultCounters.set(f.id, n);
    if (!fault && n >= f.nth && n < f.nth + f.count) fault = f;
  }
  // one shape for requests and responses (a spread adding timeoutMs would make a hidden class per request)
  const options = {
    now: k.now,
    latency: k.latency(from, effect.to) + slowedMs,
    fault: fault?.action ?? null,
    delayMs: fault?.delayMs ?? 0,
    timeoutMs: isRequest && expectResponse ? (effect.timeoutMs as number) : null,
  };
  const route: Route = isRequest ? k.network.sendRequest(env, options) : k.network.sendResponse(env, requestGeneration, options);
  const fg = !env.background;
  // a request that will not be answered is work the run must wait for, never background traffic
  const unanswerable = route.outcome !== 'queued' || route.doomed !== null;
  if (route.tracked) armRequestTimeout(k, env, route, effect.timeoutMs as number, fg || unanswerable);
  let fate: EnvelopeRecord['fate'] = 'in-flight';
  let why: string | null = fault ? fault.label : null;
  switch (route.outcome) {
    case 'queued':
      k.push(route.at as number, { kind: 'deliver', envelope: env, fg, duplicate: false });
      if (fault?.action === 'delay') faults.push(`${env.rpc} #${id} delayed by ${fault.delayMs} ms (${fault.label})`);
      if (route.copyAt !== null) {
        faults.push(`${env.rpc} #${id} duplicated (${fault?.label ?? ''})`);
        k.push(route.copyAt, { kind: 'deliver', envelope: env, fg, duplicate: true });
      }
      break;
    case 'dropped':
      fate = 'dropped';
      faults.push(`${env.rpc} #${id} dropped (${fault?.label ?? ''})`);
      // the client will have to notice: what is in flight on this connection now matters
      promoteTimeouts(k, route.connection);
      break;
    case 'reset':
      fate = 'lost';
      faults.push(`connection ${connectionName(route.connection)} reset (${fault?.label ?? ''}): ${env.rpc} #${id} is lost with it`);
      resetConnection(k, route.connection);
      break;
    default:
      fate = 'lost';
      why = route.why;
      faults.push(`${env.rpc} #${id} lost: ${route.why}`);
      break;
  }
  onSent(env, route.at, fate, why, expectResponse ? (effect.timeoutMs as number) : null);
  // the response is sent: its connection's next request is read
  if (answering) answered(k, answering);
  return id;
}

/** Arms the client's timeout for a request now in flight (NetworkClient's per-request timeout). */
function armRequestTimeout(k: KernelCore, env: Envelope, route: Route, timeoutMs: number, fg: boolean): void {
  const client = k.network.get(route.connection)?.client ?? env.from;
  const seq = k.push(k.now + timeoutMs, {
    kind: 'requestTimeout',
    actor: client,
    connection: route.connection,
    generation: route.generation,
    envelopeId: env.id,
    incarnation: env.fromIncarnation,
    fg,
  });
  k.requestTimeouts.set(env.id, { seq, fg });
}

export function cancelRequestTimeout(k: KernelCore, envelopeId: number): void {
  const t = k.requestTimeouts.get(envelopeId);
  if (!t) return;
  k.cancelSeq(t.seq);
  k.requestTimeouts.delete(envelopeId);
}

/**
 * A connection stalled or broke: its requests will not be answered, so their timeouts are work
 * that keeps the run going, not background traffic.
 */
function promoteTimeouts(k: KernelCore, key: string): void {
  const c = k.network.get(key);
  if (!c) return;
  for (const r of c.inFlight) {
    const t = k.requestTimeouts.get(r.envelopeId);
    if (!t || t.fg || k.cancelled.has(t.seq)) continue;
    k.foreground.add(t.seq);
    k.quietDeadline = null;
    k.requestTimeouts.set(r.envelopeId, { seq: t.seq, fg: true });
  }
}

/** A reset fault: the connection breaks for both sides at once. */
function resetConnection(k: KernelCore, key: string): void {
  const c = k.network.get(key);
  if (!c) return;
  const generation = c.generation;
  const lost = k.network.close(key, 'reset');
  notifyClosed(k, c.client, key, generation, 'reset', lost);
}

/**
 * The client closes its connection to `server` (NetworkClient.disconnect, e.g. the consumer's
 * AbstractCoordinator.markCoordinatorUnknown → disconnectAsync): a new generation starts, and every
 * request in flight on the old one completes as a disconnect at once; an answer still travelling on
 * it is never delivered.
 */
export function closeClientConnection(k: KernelCore, client: ActorId, server: ActorId): void {
  const key = k.connectionOf(client, server);
  const c = k.network.get(key);
  if (!c) return;
  const lost = k.network.close(key, 'client-close');
  notifyClosed(k, client, key, c.generation, 'client-close', lost);
}

/** The peer is gone: the connection is broken, and its client notices one latency later. */
export function breakConnection(k: KernelCore, key: string, reason: CloseReason): void {
  if (!k.network.breakConnection(key, reason)) return;
  const c = k.network.get(key);
  if (!c) return;
  promoteTimeouts(k, key);
  const client = k.processes.get(processOf(c.client));
  if (!client || client.down) return;
  k.push(k.now + k.latency(c.server, c.client), {
    kind: 'connectionClosed',
    actor: c.client,
    connection: key,
    generation: c.generation,
    reason,
    incarnation: client.incarnation,
    fg: c.inFlight.some((r) => !r.background),
  });
}

/** Every request that was in flight on a closed connection completes as a disconnect, oldest first. */
export function notifyClosed(
  k: KernelCore,
  client: ActorId,
  key: string,
  generation: number,
  reason: CloseReason,
  lost: readonly InFlightRequest[],
): void {
  const proc = k.processes.get(processOf(client));
  if (reason === 'reset') dropUnread(k, key);
  // A request timeout is the client's own finding (NetworkClient.poll → handleTimedOutRequests closes
  // the connection and fails what was in flight on it, in one go): it handles the disconnects before
  // anything else at this instant, so it never sends again in the belief that the closed connection
  // is up — on a new one, with no reconnect backoff, ahead of the retries it is about to make.
  const queue = reason === 'timeout' ? k.pushFirst.bind(k) : k.push.bind(k);
  for (const r of lost) {
    cancelRequestTimeout(k, r.envelopeId);
    if (!proc || proc.down) continue;
    queue(k.now, {
      kind: 'disconnected',
      actor: client,
      request: { id: r.envelopeId, rpc: r.rpc, to: r.to, payload: r.payload },
      incarnation: proc.incarnation,
      // the client's answer to a lost heartbeat or idle fetch is background traffic too
      fg: !r.background,
      reason,
      connection: key,
      generation,
    });
  }
}
