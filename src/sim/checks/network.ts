/**
 * Differential checks of the network and the kernel, read from the trace alone (not from the
 * kernel's own bookkeeping), stating TCP's and NetworkClient's rules:
 *
 * - per connection, direction and generation, envelopes are delivered in the order they were sent
 *   (TCP keeps order; a delay holds what is behind it);
 * - no response travelling on a connection generation that its client already closed is delivered
 *   (NetworkClient.processDisconnection: the closed connection's requests were completed as
 *   disconnects, and nothing else arrives on it);
 * - a server reads one request of a connection at a time: a request that expects an answer is read
 *   only once the answer to the one read before it on its connection generation has been sent — a
 *   generation its client has closed too (SocketServer's mute; kernel/serverReads.ts) — Fetch
 *   requests aside (the model's are per partition, standing for Kafka's one per broker);
 * - every request that expects an answer is answered, completed as a disconnect, or lost with its
 *   sender (a crash or close), before its timeout has passed by the end of the run — never left
 *   hanging (NetworkClient.handleTimedOutRequests);
 * - virtual time is a finite number that never goes backwards, and no run takes more steps at one
 *   instant than its limit (a livelock is a defect of the model);
 * - a run declared quiescent has no transaction left open at a live transaction coordinator (its
 *   transaction.timeout.ms check is work that keeps a run going, never background traffic).
 */
import { TXN_STATES } from '../coordinator/transactionState';
import { isRequestRpc } from '../kernel/envelope';
import { processOf } from '../kernel/faults';
import { DEFAULT_MAX_STEPS_PER_INSTANT } from '../kernel/simulation';
import type { Trace } from '../run';
import { envelopeRows } from '../trace/envelopeRows';
import { stopsProcess } from '../trace/processStops';

export type NetworkInvariantId =
  | 'connection-order'
  | 'closed-connection-silent'
  | 'one-request-at-a-time'
  | 'requests-resolved'
  | 'virtual-time'
  | 'quiescent-settled';

export const NETWORK_INVARIANTS: Readonly<Record<NetworkInvariantId, string>> = {
  'connection-order':
    'On every connection, in each direction and generation, envelopes are delivered in the order they were sent (TCP keeps order; a delayed envelope holds back what follows it).',
  'closed-connection-silent':
    'No response is delivered on a connection generation its client has already closed (after a request timeout, a reset or a broken peer, the requests on it complete as disconnects).',
  'one-request-at-a-time':
    "A server reads one request of a connection at a time: a request is handled only once the answer to the one before it on that connection has been sent, or the client has closed the connection (Kafka's SocketServer mutes a channel until its response is sent). Fetch requests are not held to it: a follower's are per partition (Kafka's one per leader), and a consumer's other requests to that broker are read while its Fetch is held (Kafka's wait behind it).",
  'requests-resolved':
    'Every request that expects an answer is answered, completed as a disconnect, or lost with its sender before its request timeout has passed — none is left hanging.',
  'virtual-time':
    'Virtual time is a finite number that never goes backwards, and a run takes a bounded number of steps at one instant (a livelock or an impossible time stops the run and is reported).',
  'quiescent-settled':
    'A run that ends quiescent leaves no transaction open (Ongoing or being prepared) at a live transaction coordinator.',
};

export type Report = (invariant: NetworkInvariantId, step: number, message: string) => void;

function checkTime(trace: Trace, add: Report): void {
  const limit = trace.built.options.maxStepsPerInstant ?? DEFAULT_MAX_STEPS_PER_INSTANT;
  let last = 0;
  let run = 0;
  for (const s of trace.steps) {
    if (!Number.isFinite(s.t)) add('virtual-time', s.i, `step ${s.i} happens at ${s.t}, not a finite time`);
    else if (s.t < last) add('virtual-time', s.i, `step ${s.i} at ${s.t} ms comes after a step at ${last} ms: time went backwards`);
    run = s.t === last && s.i > 0 ? run + 1 : 1;
    if (run > limit) add('virtual-time', s.i, `${run} steps at ${s.t} ms without time advancing (limit ${limit})`);
    if (Number.isFinite(s.t)) last = Math.max(last, s.t);
  }
  const end = trace.steps.length - 1;
  if (trace.stopReason === 'livelock') add('virtual-time', end, `the run stopped as a livelock: ${trace.stopDetail ?? ''}`);
  if (trace.stopReason === 'invalid-time') add('virtual-time', end, `the run stopped on an impossible time: ${trace.stopDetail ?? ''}`);
}

/** The step at which each connection generation was closed: its first disconnect notice, or the first envelope of a later one. */
function closeSteps(trace: Trace): Map<string, number> {
  const closed = new Map<string, number>();
  const mark = (connection: string, generation: number, step: number) => {
    for (let g = generation; g >= 0; g--) {
      const k = `${connection}#${g}`;
      const was = closed.get(k);
      if (was !== undefined && was <= step) break;
      closed.set(k, step);
    }
  };
  for (const s of trace.steps) {
    if (s.kind !== 'disconnected') continue;
    const d = s.detail as { connection?: string; generation?: number } | null;
    if (d && typeof d.connection === 'string' && typeof d.generation === 'number') mark(d.connection, d.generation, s.i);
  }
  for (const e of envelopeRows(trace)) if (e.generation > 0) mark(e.connection, e.generation - 1, e.sentStep);
  return closed;
}

function checkConnections(trace: Trace, add: Report): void {
  const lastDelivered = new Map<string, { id: number; step: number }>();
  const closed = closeSteps(trace);
  const delivered = [...envelopeRows(trace)]
    .filter((e) => e.fate === 'delivered' && e.deliveredStep !== null)
    .sort((a, b) => (a.deliveredStep as number) - (b.deliveredStep as number) || a.id - b.id);
  for (const e of delivered) {
    const step = e.deliveredStep as number;
    const response = !isRequestRpc(e.rpc);
    const lane = `${e.connection}#${e.generation}|${response ? 'to-client' : 'to-server'}`;
    const before = lastDelivered.get(lane);
    if (before && before.id > e.id)
      add(
        'connection-order',
        step,
        `${e.rpc} #${e.id} was delivered on ${e.connection} (generation ${e.generation}) after #${before.id}, which was sent later`,
      );
    if (!before || before.id < e.id) lastDelivered.set(lane, { id: e.id, step });
    if (response) {
      const at = closed.get(`${e.connection}#${e.generation}`);
      if (at !== undefined && at < step)
        add(
          'closed-connection-silent',
          step,
          `${e.rpc} #${e.id} was delivered on ${e.connection} generation ${e.generation}, closed since step ${at}`,
        );
    }
  }
}

/**
 * SocketServer's mute, checked from the trace: on each connection generation, closed or not, a
 * request read (one that expects an answer, not a Fetch) is read after the answer to the previous
 * such request was sent. (A request never answered because its server went down is followed by no
 * read on that generation: what waited behind it is lost.)
 */
function checkServerReads(trace: Trace, add: Report): void {
  const answerSent = new Map<number, number>();
  for (const e of envelopeRows(trace)) if (e.inReplyTo !== null && !answerSent.has(e.inReplyTo)) answerSent.set(e.inReplyTo, e.sentStep);
  const reads = [...envelopeRows(trace)]
    .filter((e) => isRequestRpc(e.rpc) && e.rpc !== 'Fetch' && e.timeoutMs !== null && e.deliveredStep !== null && e.fate === 'delivered')
    .sort((a, b) => (a.deliveredStep as number) - (b.deliveredStep as number) || a.id - b.id);
  const previous = new Map<string, (typeof reads)[number]>();
  for (const e of reads) {
    const lane = `${e.connection}#${e.generation}`;
    const before = previous.get(lane);
    previous.set(lane, e);
    if (!before) continue;
    const step = e.deliveredStep as number;
    const answered = answerSent.get(before.id);
    if (answered !== undefined && answered < step) continue;
    add(
      'one-request-at-a-time',
      step,
      `${e.rpc} #${e.id} was read by ${e.to} on ${e.connection} (generation ${e.generation}) before ${before.rpc} #${before.id}, read before it, was answered`,
    );
  }
}

function checkRequests(trace: Trace, add: Report): void {
  const answered = new Set<number>();
  for (const e of envelopeRows(trace)) if (e.inReplyTo !== null && e.fate === 'delivered') answered.add(e.inReplyTo);
  const disconnected = new Set<number>();
  const crashes = new Map<string, number[]>();
  const stepAt = (i: number) => trace.steps.at(i)?.t ?? trace.endTime;
  for (const s of trace.steps) {
    if (s.kind === 'disconnected' && s.envelope !== null) disconnected.add(s.envelope);
    if (stopsProcess(s)) crashes.set(s.actor, [...(crashes.get(s.actor) ?? []), s.i]);
  }
  // a client that closed its connections (KafkaProducer.close) forgets what was in flight: at the
  // close() call, or — a close that first waited for its records — at the producer's `closeNow`, or
  // at close(Duration)'s timeout (a forced close)
  const closedBy = new Map<string, number[]>();
  for (const s of trace.steps)
    if ((s.kind === 'call' && s.label === 'close') || (s.kind === 'timer' && (s.label === 'closeNow' || s.label === 'closeTimeout')))
      closedBy.set(s.actor, [...(closedBy.get(s.actor) ?? []), s.i]);
  const end = trace.checkpoints[trace.checkpoints.length - 1];
  const stillPaused = new Set((end?.processes ?? []).filter(([, p]) => p.paused || p.down).map(([id]) => id));
  for (const e of envelopeRows(trace)) {
    if (e.timeoutMs === null || answered.has(e.id) || disconnected.has(e.id)) continue;
    if (e.sentAt + e.timeoutMs >= trace.endTime) continue;
    const proc = processOf(e.from);
    if ((crashes.get(proc) ?? []).some((i) => i > e.sentStep)) continue;
    if ((closedBy.get(e.from) ?? []).some((i) => i >= e.sentStep)) continue;
    if (stillPaused.has(proc)) continue;
    add(
      'requests-resolved',
      e.sentStep,
      `${e.rpc} #${e.id} from ${e.from} (sent at ${e.sentAt} ms, timeout ${e.timeoutMs} ms) was never answered nor disconnected by ${stepAt(trace.steps.length - 1)} ms`,
    );
  }
}

const OPEN_STATES = new Set<string>(TXN_STATES.filter((s) => s === 'Ongoing' || s.startsWith('Prepare')));

function checkQuiescence(trace: Trace, add: Report): void {
  if (trace.stopReason !== 'quiescent') return;
  const end = trace.checkpoints[trace.checkpoints.length - 1];
  if (!end) return;
  const processes = new Map(end.processes);
  for (const [id, snapshot] of end.actors) {
    const p = processes.get(processOf(id));
    if (!p || p.down || p.paused) continue;
    const txns = ((snapshot as { context?: { txns?: Record<string, { state: string }> } }).context?.txns ?? {}) as Record<
      string,
      { state: string }
    >;
    for (const [txnId, m] of Object.entries(txns))
      if (OPEN_STATES.has(m.state))
        add(
          'quiescent-settled',
          trace.steps.length - 1,
          `the run ended quiescent while ${id} still had transaction ${txnId} in state ${m.state}`,
        );
  }
}

/** Every violation of the network's and the kernel's rules in a run. */
export function checkNetwork(trace: Trace, add: Report): void {
  checkTime(trace, add);
  checkConnections(trace, add);
  checkServerReads(trace, add);
  checkRequests(trace, add);
  checkQuiescence(trace, add);
}
