/**
 * A producing application: runs its script against its KafkaProducer, one operation at a time,
 * each a local call that it waits on (send returns at once; flush, commitTransaction and friends
 * block until done). A transactional application calls initTransactions() when it starts.
 *
 * When a transaction fails with an abortable error it calls abortTransaction(), as Kafka's
 * examples do; when the producer is fenced it stops. A blocking call that threw TimeoutException
 * (max.block.ms) is called again, as KafkaProducer's javadoc says it safely may. After a crash and restart it starts again
 * from the first operation it had not seen complete — the start of an unfinished transaction —
 * which is an application-level retry, and the reason "exactly once" needs more than idempotence.
 */
import { setup } from 'xstate';
import type { Mutable } from '../actors/draft';
import type { Lifecycle, Timer } from '../actors/events';
import { handle, type Out } from '../actors/out';
import type { ActorId } from '../kernel/envelope';
import { hashString } from '../kernel/hash';
import type { SendArgs } from '../producer/sender';
import type { ProducerOp } from '../scenario/schema';
import type { ReplyEvent } from './applicationLoop';
import { fatalByFencing } from './consumerAppGuards';
import { retryAfterTimeout, timedOutRetriable } from './producerTimeouts';

export interface ProducerAppContext {
  readonly self: ActorId;
  readonly producer: ActorId;
  readonly client: string;
  readonly transactional: boolean;
  readonly script: readonly ProducerOp[];
  /** Index of the operation running or next to run. */
  readonly pc: number;
  /** Iteration within a `count` send. */
  readonly iteration: number;
  /** Where a restarted application resumes. */
  readonly resumePc: number;
  readonly inTransaction: boolean;
  readonly lastCompletedAt: number;
  readonly stopped: string | null;
}

export interface ProducerAppInput {
  readonly self: ActorId;
  readonly producer: ActorId;
  readonly client: string;
  readonly transactional: boolean;
  readonly script: readonly ProducerOp[];
}

type Ev = ReplyEvent | Timer<'runNext'> | Lifecycle;

type Draft = Mutable<ProducerAppContext>;

const fill = (text: string | null, i: number): string | null => (text === null ? null : text.replaceAll('{i}', String(i)));

function sendArgs(op: Extract<ProducerOp, { op: 'send' }>, i: number): SendArgs {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(op.headers ?? {})) headers[k] = fill(v, i) as string;
  return {
    topic: op.topic,
    key: fill(op.key, i),
    value: fill(op.value, i),
    headers,
    ...(op.partition !== undefined ? { partition: op.partition } : {}),
  };
}

/**
 * The record an earlier send produced for this event_id, rebuilt from the script (so the
 * application keeps no per-record memory: a resend is "send that event again").
 */
export function findSendArgs(script: readonly ProducerOp[], before: number, eventId: string): SendArgs | null {
  for (let pc = Math.min(before, script.length) - 1; pc >= 0; pc--) {
    const op = script[pc];
    if (op?.op !== 'send') continue;
    const template = op.headers?.event_id;
    if (template === undefined) continue;
    const count = op.count ?? 1;
    if (!template.includes('{i}')) {
      if (template === eventId) return sendArgs(op, count - 1);
      continue;
    }
    const [head, ...rest] = template.split('{i}');
    const tail = rest.join('{i}');
    if (!eventId.startsWith(head ?? '') || !eventId.endsWith(tail)) continue;
    const digits = eventId.slice((head ?? '').length, eventId.length - tail.length);
    const i = Number(digits);
    if (/^\d+$/.test(digits) && i < count && sendArgs(op, i).headers?.event_id === eventId) return sendArgs(op, i);
  }
  return null;
}

/**
 * The event_id a business retry mints when it builds the event again (UUID.randomUUID() in the
 * application): a version-4-shaped UUID derived from the client, the script position and the
 * original id, so that the same scenario always mints the same one.
 */
export function mintedEventId(client: string, pc: number, eventId: string): string {
  const hex = hashString(`${client}|${pc}|${eventId}`) + hashString(`${eventId}|${pc}|${client}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[Number.parseInt(hex[16] as string, 16) % 4]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Arms the timer for the operation at pc (respecting its `at` / `delayMs`). */
function scheduleNext(d: Draft, now: number, out: Out): void {
  const op = d.script[d.pc];
  if (!op) {
    out.raise({ type: 'finished' });
    return;
  }
  let at = now;
  if ('at' in op && op.at !== undefined) at = Math.max(at, op.at);
  if ('delayMs' in op && op.delayMs !== undefined) at = Math.max(at, d.lastCompletedAt + op.delayMs);
  if (op.op === 'sleep') at = Math.max(at, now + op.ms);
  out.timer('next', 'runNext', at - now);
}

function advance(d: Draft, now: number, out: Out): void {
  const op = d.script[d.pc];
  if (op?.op === 'send' && (op.count ?? 1) > d.iteration + 1) d.iteration += 1;
  else {
    d.pc += 1;
    d.iteration = 0;
  }
  d.lastCompletedAt = now;
  // a finished unit of work: outside a transaction every operation is one; inside, the commit is
  if (!d.inTransaction) d.resumePc = d.pc;
  scheduleNext(d, now, out);
}

/**
 * A handler's draft: a copy of the context exactly as `{ ...c }` (the scenario's input fields, then
 * the machine's, in that order), written out field by field: a spread of a context whose fields V8
 * keeps out of line takes its slow path on every event (tests/contextDrafts.test.ts).
 */
export function producerAppDraft(c: ProducerAppContext): Draft {
  return {
    self: c.self,
    producer: c.producer,
    client: c.client,
    transactional: c.transactional,
    script: c.script,
    pc: c.pc,
    iteration: c.iteration,
    resumePc: c.resumePc,
    inTransaction: c.inTransaction,
    lastCompletedAt: c.lastCompletedAt,
    stopped: c.stopped,
  };
}

const act = (fn: (d: Draft, ev: Ev & { now: number }, out: Out) => void) =>
  handle((ctx: ProducerAppContext, ev: Ev & { now: number }, out: Out) => {
    const d: Draft = producerAppDraft(ctx);
    fn(d, ev, out);
    return d;
  });

const start = act((d, ev, out) => {
  d.pc = d.resumePc;
  d.iteration = 0;
  d.inTransaction = false;
  d.lastCompletedAt = ev.now;
  if (d.transactional) out.call(d.producer, 'initTransactions');
  else scheduleNext(d, ev.now, out);
});

const runNext = act((d, ev, out) => {
  const op = d.script[d.pc];
  if (!op) return;
  switch (op.op) {
    case 'send':
      out.call(d.producer, 'send', sendArgs(op, d.iteration) as unknown as Record<string, unknown>);
      return;
    case 'resend': {
      const found = findSendArgs(d.script, d.pc, op.eventId);
      const minted = op.newEventId ? mintedEventId(d.client, d.pc, op.eventId) : null;
      out.fact({
        kind: 'note',
        actor: d.self,
        text: minted
          ? `the application's business retry builds event ${op.eventId} again with a new event_id ${minted}: the same payload, an id nobody has seen`
          : `the application sends event ${op.eventId} again: a new send(), so a new sequence number`,
      });
      const args = found && minted ? { ...found, headers: { ...found.headers, event_id: minted } } : found;
      if (args) out.call(d.producer, 'send', args as unknown as Record<string, unknown>);
      else advance(d, ev.now, out);
      return;
    }
    case 'beginTransaction':
      d.inTransaction = true;
      d.resumePc = d.pc;
      out.call(d.producer, 'beginTransaction');
      return;
    case 'flush':
    case 'commitTransaction':
    case 'abortTransaction':
      out.call(d.producer, op.op);
      return;
    case 'restart':
      if (op.closeTimeoutMs === undefined) {
        out.fact({ kind: 'note', actor: d.self, text: 'the application closes its producer and creates a new one' });
        out.call(d.producer, 'close');
        return;
      }
      // close(Duration): past the timeout the producer closes forcefully (producer.machine.ts `forceClose`)
      out.fact({
        kind: 'note',
        actor: d.self,
        text: `the application closes its producer with close(Duration.ofMillis(${op.closeTimeoutMs})) and creates a new one`,
      });
      out.call(d.producer, 'close', { timeoutMs: op.closeTimeoutMs });
      return;
    case 'sleep':
      advance(d, ev.now, out);
      return;
  }
});

const onReply = act((d, ev, out) => {
  if (ev.type !== 'reply') return;
  const r = ev.args;
  if (timedOutRetriable(r)) {
    retryAfterTimeout(d.self, d.producer, r.call, out);
    return;
  }
  switch (r.call) {
    case 'initTransactions':
      if (r.ok) scheduleNext(d, ev.now, out);
      else stop(d, out, r.error ?? 'initTransactions failed');
      return;
    case 'close':
      // the new producer of a transactional application must be initialised again
      if (d.transactional) {
        d.pc += 1;
        d.resumePc = d.pc;
        out.call(d.producer, 'initTransactions');
      } else advance(d, ev.now, out);
      return;
    case 'commitTransaction':
    case 'abortTransaction':
      if (r.ok) {
        d.inTransaction = false;
        advance(d, ev.now, out);
        return;
      }
      // INVALID_TXN_STATE is not among them: commitTransaction throws InvalidTxnStateException, a
      // KafkaException the canonical catch block answers with abortTransaction() — which succeeds when a
      // Produce was refused so (ABORTABLE_ERROR), and throws when the coordinator refused the transaction
      // (FATAL_ERROR: maybeFailWithError), so such an instance stops at the abort below. Nor is
      // INVALID_PRODUCER_EPOCH (a Produce refused so during the commit): InvalidProducerEpochException is
      // not among the javadoc loop's unrecoverable exceptions (ProducerFencedException,
      // OutOfOrderSequenceException, AuthorizationException) — "user should abort the ongoing transaction"
      // — and the abort succeeds under protocol v2 when only the coordinator's timeout fenced the epoch
      // (a retry), and is PRODUCER_FENCED when another instance did
      if (r.error === 'PRODUCER_FENCED' || r.error === 'ProducerFencedException' || r.call === 'abortTransaction') {
        // a producer made fatal otherwise was not fenced — its transactional.id expired (INVALID_PRODUCER_ID_MAPPING,
        // KAFKA-18019), an invalid transition poisoned it: it can only be closed
        if (fatalByFencing(r)) stop(d, out, `${r.call} failed with ${r.error}: this instance was fenced and stops`);
        else stop(d, out, `${r.call} failed with ${r.error}: this instance's producer can only be closed, and it stops`);
        return;
      }
      // an abortable error: abort, as the canonical catch block does, and carry on
      out.fact({ kind: 'note', actor: d.self, text: `commitTransaction failed (${r.error}); the application aborts the transaction` });
      out.call(d.producer, 'abortTransaction');
      return;
    default:
      // send, beginTransaction, flush: a refused call is recorded by the producer; the script goes on
      advance(d, ev.now, out);
      return;
  }
});

function stop(d: Draft, out: Out, why: string): void {
  d.stopped = why;
  out.fact({ kind: 'note', actor: d.self, text: why });
  out.raise({ type: 'halt' });
}

export const producerAppMachine = setup({
  types: {} as { context: ProducerAppContext; input: ProducerAppInput; events: Ev | { type: 'finished' } | { type: 'halt' } },
}).createMachine({
  id: 'producerApp',
  context: ({ input }) => ({
    ...input,
    pc: 0,
    iteration: 0,
    resumePc: 0,
    inTransaction: false,
    lastCompletedAt: 0,
    stopped: null,
  }),
  initial: 'idle',
  on: { crash: '.down' },
  states: {
    idle: { on: { boot: { target: 'running', actions: start } } },
    running: {
      on: {
        runNext: { actions: runNext },
        reply: { actions: onReply },
        finished: 'done',
        halt: 'stopped',
      },
    },
    done: {
      // a restart after the script ended has nothing left to do, but replies may still arrive
      on: { reply: {} },
    },
    stopped: {},
    down: {
      on: { restart: { target: 'running', actions: start } },
    },
  },
});
