/**
 * The consumer application's context, events and the glue its handlers share (a handler on a draft
 * of the context, correlation ids, stopping). The loop's handlers are in consumerAppLoop.ts, the
 * sinks' in consumerAppSinks.ts, the decisions between states in consumerAppGuards.ts.
 */
import type { Mutable } from '../actors/draft';
import { handle, type Out } from '../actors/out';
import type { DisconnectedEvent, RpcEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import type { RecordForApp, TopicPartition } from '../protocol/messages';
import type { ProcessingMode } from '../scenario/schema';
import type { GroupMetadata, LifecycleEvent, LoopTimer, PollAnswer, ReplyEvent } from './applicationLoop';
import type { PlanStep } from './consumerAppPlan';

export interface SinkRef {
  readonly id: ActorId;
  readonly type: 'database' | 'http-api' | 'outbox';
  readonly mode: string;
}

export interface ConsumerAppInput {
  readonly self: ActorId;
  readonly consumer: ActorId;
  readonly producer: ActorId | null;
  readonly client: string;
  readonly mode: ProcessingMode;
  readonly sink: SinkRef | null;
  readonly outputTopic: string | null;
  readonly processingMs: number;
  readonly commitIntervalMs?: number | null;
  readonly checkOrder?: string | null;
}

export interface ConsumerAppContext extends Omit<ConsumerAppInput, 'commitIntervalMs' | 'checkOrder'> {
  /** exactly-once: a transaction stays open across polls until this much time passed (null: one per poll). */
  readonly commitIntervalMs: number | null;
  /** The header naming the business entity whose `seq` order the application checks (null: none). */
  readonly checkOrder: string | null;
  readonly httpTimeoutMs: number;
  readonly batch: readonly RecordForApp[];
  readonly groupMetadata: GroupMetadata | null;
  /** The consumer's positions when poll() returned: the next offsets to read. */
  readonly positions: Readonly<Record<string, number>>;
  readonly plan: readonly PlanStep[];
  readonly step: number;
  /** An HTTP call in flight (for its timeout and retry). */
  readonly httpAttempt: number;
  /** Correlation id of the sink call the current step waits for: answers to earlier attempts are ignored. */
  readonly sinkRequest: number | null;
  /** onPartitionsAssigned is reading the database's offsets (this query's correlation id). */
  readonly listenerQuery: number | null;
  /** The partitions of the last assignment ("topic-partition"). */
  readonly assigned: readonly string[];
  readonly nextCorrelationId: number;
  readonly stopped: string | null;
  /** A poll() has been called and not answered yet. */
  readonly pollOutstanding: boolean;
  /** A poll() answer that came while a batched transaction was committing: processed after it. */
  readonly heldPoll: PollAnswer | null;
  /** A transaction is open (between beginTransaction and its commit or abort). */
  readonly txnOpen: boolean;
  readonly txnStartedAt: number;
  /** The group generation the open transaction's records were polled in. */
  readonly txnGeneration: number | null;
  /** checkOrder: the highest seq processed per entity. */
  readonly lastSeq: Readonly<Record<string, number>>;
}

export type { PollAnswer } from './applicationLoop';

/** The consumer application's events: its clients' replies and calls, its sinks' answers, its timers, the kernel's. */
export type ConsumerAppEvent =
  | ReplyEvent
  | { readonly type: 'onPartitionsAssigned'; readonly now: number; readonly from: ActorId; readonly args: { partitions: TopicPartition[] } }
  | (RpcEvent<SinkAnswer> & { readonly type: 'DbTransactionResult' | 'DbQueryResult' | 'HttpResponse' })
  | DisconnectedEvent
  | LoopTimer<'continue' | 'httpTimeout' | 'dbTimeout' | 'txnCommitDue'>
  | LifecycleEvent;
export type Ev = ConsumerAppEvent;
export type Draft = Mutable<ConsumerAppContext>;

/** What a sink answers: the correlation id of the call, and the database's stored offsets or the HTTP status. */
export interface SinkAnswer {
  readonly correlationId?: number;
  readonly ok?: boolean;
  readonly conflict?: boolean;
  readonly offsets?: Record<string, number>;
  readonly status?: number;
}

export function corr(d: Draft): number {
  const c = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  return c;
}

/** A handler as an XState action, on a draft copy of the context. */
export const act = (fn: (d: Draft, ev: Ev & { now: number }, out: Out) => void) =>
  handle((ctx: ConsumerAppContext, ev: Ev & { now: number }, out: Out) => {
    const d: Draft = appDraft(ctx);
    fn(d, ev, out);
    return d;
  });

/**
 * A handler's draft: a copy of the context, exactly as `{ ...c }` (same keys, same order as
 * initialConsumerAppContext makes them from the scenario's input), written out field by field: a
 * spread of an object whose fields V8 keeps out of line (as a clone made by a busy spread site is)
 * takes its slow path, ten times the cost of this literal, on every application event.
 */
export function appDraft(c: ConsumerAppContext): Draft {
  return {
    self: c.self,
    consumer: c.consumer,
    producer: c.producer,
    client: c.client,
    mode: c.mode,
    sink: c.sink,
    outputTopic: c.outputTopic,
    processingMs: c.processingMs,
    commitIntervalMs: c.commitIntervalMs,
    checkOrder: c.checkOrder,
    httpTimeoutMs: c.httpTimeoutMs,
    batch: c.batch,
    groupMetadata: c.groupMetadata,
    positions: c.positions,
    plan: c.plan,
    step: c.step,
    httpAttempt: c.httpAttempt,
    sinkRequest: c.sinkRequest,
    listenerQuery: c.listenerQuery,
    assigned: c.assigned,
    nextCorrelationId: c.nextCorrelationId,
    stopped: c.stopped,
    pollOutstanding: c.pollOutstanding,
    heldPoll: c.heldPoll,
    txnOpen: c.txnOpen,
    txnStartedAt: c.txnStartedAt,
    txnGeneration: c.txnGeneration,
    lastSeq: c.lastSeq,
  };
}

/** The application gives up: it says why and closes its consumer (the guard that chose `stopped` decided it). */
export function stop(d: Draft, out: Out, why: string): void {
  d.stopped = why;
  out.fact({ kind: 'note', actor: d.self, text: why });
  out.call(d.consumer, 'close');
}

/** The context a consumer application starts with. */
export function initialConsumerAppContext(input: ConsumerAppInput): ConsumerAppContext {
  return {
    ...input,
    httpTimeoutMs: 5000,
    batch: [],
    groupMetadata: null,
    positions: {},
    plan: [],
    step: 0,
    httpAttempt: 0,
    sinkRequest: null,
    listenerQuery: null,
    assigned: [],
    nextCorrelationId: 0,
    stopped: null,
    commitIntervalMs: input.commitIntervalMs ?? null,
    checkOrder: input.checkOrder ?? null,
    pollOutstanding: false,
    heldPoll: null,
    txnOpen: false,
    txnStartedAt: 0,
    txnGeneration: null,
    lastSeq: {},
  };
}
