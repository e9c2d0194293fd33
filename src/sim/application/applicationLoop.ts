/**
 * The application loop a consuming application runs — poll() → process the batch → commit — shared
 * by the consumer application (consumerApp.machine.ts) and the Kafka Streams thread
 * (streams/streamThread.machine.ts). Both run it as states of their machine: `polling` (a poll() is
 * out), `processing` (the batch's steps, one kernel step each, so a crash can land between them) and
 * `committing` (commitSync, or under exactly-once sendOffsetsToTransaction then commitTransaction);
 * what differs is what a step does and when a commit is due. This module holds what both do the same:
 * the events they get, the offsets they commit (consumer.position(): the next offset to read), the
 * named crash points' detail, the `processed` fact, and the guards that read a reply.
 */
import type { Out } from '../actors/out';
import type { TimerEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import { extend } from '../kernel/extend';
import type { RecordForApp, TopicPartition } from '../protocol/messages';
import { parseTopicPartition } from '../protocol/topicPartition';
import type { Fact } from '../trace/facts';

/** consumer.groupMetadata(): what sendOffsetsToTransaction sends so the coordinator can fence a zombie. */
export interface GroupMetadata {
  readonly groupId: string | null;
  readonly generationId: number;
  readonly memberId: string;
  /** ConsumerGroupMetadata.groupInstanceId: a static member's group.instance.id (the TxnOffsetCommit carries it). */
  readonly groupInstanceId?: string;
}

/** What KafkaConsumer.poll() returns: the records, and the positions and group metadata after them. */
export interface PollAnswer {
  readonly records?: readonly RecordForApp[];
  readonly positions?: Readonly<Record<string, number>>;
  readonly groupMetadata?: GroupMetadata | null;
}

/** The answer to a local call (poll, send, commitSync, sendOffsetsToTransaction …), as the client gives it. */
export interface CallReply extends PollAnswer {
  readonly call: string;
  readonly ok: boolean;
  readonly error?: string | null;
  /** A call refused in an error state: the error that put the client there (the refusal's cause). */
  readonly cause?: string | null;
  readonly offsets?: Readonly<Record<string, number>>;
}

/** A client of the same process answered a call: `from` says which client. */
export interface ReplyEvent {
  readonly type: 'reply';
  readonly now: number;
  readonly from: ActorId;
  readonly args: CallReply;
}

/** A timer of the loop fired (`continue`: the next step; the commit timers). */
export type LoopTimer<T extends string> = Omit<TimerEvent, 'type'> & { readonly type: T };

/** The kernel's lifecycle events. */
export type LifecycleEvent = { readonly type: 'boot' | 'crash' | 'restart'; readonly now?: number };

/** The offsets to commit: the consumer's positions — past markers and skipped batches too. */
export function nextOffsets(positions: Readonly<Record<string, number>>): (TopicPartition & { offset: number })[] {
  return Object.entries(positions).map(([name, offset]) => extend(parseTopicPartition(name), { offset }));
}

/** sendOffsetsToTransaction(offsets, consumer.groupMetadata()). */
export function sendOffsetsArgs(group: GroupMetadata | null, positions: Readonly<Record<string, number>>) {
  return {
    groupId: group?.groupId ?? '',
    generationId: group?.generationId ?? -1,
    memberId: group?.memberId ?? '',
    ...(group?.groupInstanceId !== undefined ? { groupInstanceId: group.groupInstanceId } : {}),
    offsets: nextOffsets(positions),
  };
}

/** The detail of a named crash point: the record it follows. */
export const pointDetail = (r: RecordForApp | undefined) => (r ? { topic: r.topic, partition: r.partition, offset: r.offset } : {});

/** The application processed a record (what the verdict counts). */
export function processedFact(app: string, r: RecordForApp): Fact {
  return {
    kind: 'processed',
    app,
    topic: r.topic,
    partition: r.partition,
    offset: r.offset,
    eventId: r.headers.event_id ?? null,
    key: r.key,
  };
}

/** The loop's state both applications keep as data: the batch in hand and where its steps are. */
export interface LoopData {
  readonly consumer: ActorId;
  /** A poll() has been called and not answered yet (its answer may come in any state). */
  pollOutstanding: boolean;
  step: number;
}

/** Calls poll() unless one is already waiting for records. */
export function pollOnce(d: LoopData, out: Out): void {
  if (d.pollOutstanding) return;
  d.pollOutstanding = true;
  out.call(d.consumer, 'poll');
}

/** The next step, through the queue: every step boundary is a place a crash can land. */
export function advance(d: LoopData, out: Out, delay = 0): void {
  d.step += 1;
  out.timer('continue', 'continue', delay);
}

/** What a guard or handler sees of an event: its type, and for a reply who answered and how. */
export interface SomeEvent {
  readonly type: string;
  readonly from?: ActorId;
  readonly args?: unknown;
}

function isCallReply(x: unknown): x is CallReply {
  return typeof x === 'object' && x !== null && 'call' in x && typeof x.call === 'string';
}

/** The reply's arguments (null when the event is not a reply). */
export const replyOf = (ev: SomeEvent): CallReply | null => (ev.type === 'reply' && isCallReply(ev.args) ? ev.args : null);

/** A guard: the event answers `call` (from `who`, when given). */
export function answers(ev: SomeEvent, call: string, who?: ActorId): boolean {
  const r = replyOf(ev);
  return r !== null && r.call === call && (who === undefined || ev.from === who);
}

/** A guard: the event answers `call` with an error. */
export const failed = (ev: SomeEvent, call: string, who?: ActorId): boolean => answers(ev, call, who) && replyOf(ev)?.ok === false;
