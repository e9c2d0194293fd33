/**
 * Driving the consumer's statechart by hand (tests/machines/harness.ts): the group coordinator's
 * answers, the request a step sent, and a member booted to the leader of generation 1 — shared by
 * the consumer machine's tests and the rule tests built on it.
 */
import { consumerMachine } from '../../src/sim/consumer/consumer.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { plainBatch } from '../fixtures/plainBatch';
import { type Driven, drive } from './harness';

let envelope = 1;

/** A response to the request with `correlationId`, from the group coordinator unless said. */
export const answer = (type: string, correlationId: number, payload: Record<string, unknown>, from = 'group-coordinator') => ({
  type,
  from,
  envelopeId: envelope++,
  inReplyTo: 0,
  payload: { correlationId, ...payload },
});

/** The last request of `rpc` among a step's effects. */
export const sent = (fx: readonly Effect[], rpc: string) =>
  fx.filter((e): e is Extract<Effect, { type: 'send' }> => e.type === 'send' && e.rpc === rpc).pop();

/** The request lost on its connection (timed out). */
export const lost = (request: Extract<Effect, { type: 'send' }> | undefined) => ({
  type: 'disconnected',
  envelopeId: envelope++,
  to: request?.to,
  rpc: request?.rpc,
  payload: request?.payload,
  timedOut: true,
  reason: 'timeout',
});

/** The application's call `type` on its consumer (from c.app). */
export const appCall = (type: string, args: Record<string, unknown> = {}) => ({ type, from: 'c.app', args });

/**
 * A consumer booted (sending nothing: subscribe() only) and its application's first poll() at 0 —
 * the poll() that sends JoinGroup (ConsumerCoordinator.poll → ensureActiveGroup) and stays waiting
 * for the assignment and the records: the machine and the effects of that poll().
 */
export function bootAndPoll(input: unknown, at = 0): { m: Driven; polled: Effect[] } {
  const m = drive(consumerMachine, input);
  m.send({ type: 'boot' }, at);
  const app = (input as { app?: string }).app ?? 'c.app';
  return { m, polled: m.send({ type: 'poll', from: app, args: {} }, at) };
}

/**
 * A consumer (`input`, e.g. inputOf(scenario, 'c.consumer')) booted, its first poll() sending JoinGroup
 * (that poll() waits on), and answered as the leader of generation 1 at 10 ms: the machine, the
 * SyncGroup it sent next, and every effect of that answer.
 */
export function joinedAsLeader(input: unknown): { m: Driven; sync: ReturnType<typeof sent>; joined: Effect[] } {
  const { m, polled } = bootAndPoll(input);
  const join = sent(polled, 'JoinGroup');
  const joined = m.send(
    answer('JoinGroupResponse', join?.payload.correlationId as number, {
      error: 'NONE',
      generationId: 1,
      memberId: 'c-0',
      leader: 'c-0',
    }),
    10,
  );
  return { m, sync: sent(joined, 'SyncGroup'), joined };
}

/**
 * The first poll() returns: OffsetFetch `offsets` answered with offset 0 for `topic`-0 at `at`, the
 * Fetch the waiting poll() sent then answered (from its broker) with record 0 at `fetchAt` (`at` + 2) — poll()
 * returns it (position 1) and the prefetch goes out: the effects of that answer.
 */
export function firstPollReturned(m: Driven, offsets: ReturnType<typeof sent>, at: number, topic = 't', fetchAt = at + 2): Effect[] {
  const fetch = sent(positionsFetched(m, offsets, at, 'group-coordinator', topic), 'Fetch');
  const returned = fetchAnswered(m, fetch, fetchAt, oneRecordOf(topic));
  if (m.context<{ pollWaiting: string | null }>().pollWaiting !== null) throw new Error('the first poll() did not return');
  return returned;
}

/** SyncGroup answers with `partitions`: the effects of that step (the OffsetFetch for the positions). */
export function synced(m: Driven, sync: ReturnType<typeof sent>, partitions: readonly { topic: string; partition: number }[]): Effect[] {
  return m.send(answer('SyncGroupResponse', sync?.payload.correlationId as number, { error: 'NONE', assignment: partitions }), 20);
}

/**
 * OffsetFetch `offsets` answered at `at` with the committed offset 0 for `topic`-0 (t-0 unless said): the
 * effects of that step (a Fetch only if a poll() waits). `from` the coordinator that answers.
 */
export function positionsFetched(m: Driven, offsets: ReturnType<typeof sent>, at = 30, from = 'group-coordinator', topic = 't'): Effect[] {
  return m.send(
    answer(
      'OffsetFetchResponse',
      offsets?.payload.correlationId as number,
      { error: 'NONE', offsets: [{ topic, partition: 0, offset: 0, error: 'NONE' }] },
      from,
    ),
    at,
  );
}

/** `topic`-0's part of a FetchResponse: one plain batch of the records at `offsets` (none: an empty answer), high watermark after them. */
export const recordsOf = (offsets: readonly number[], topic = 't') => ({
  error: 'NONE',
  topic,
  partition: 0,
  highWatermark: offsets.length,
  lastStableOffset: offsets.length,
  logStartOffset: 0,
  batches: offsets.length > 0 ? [plainBatch(offsets.map((offset) => ({ offset })))] : [],
  abortedTransactions: [],
});

/** `topic`-0's part of a FetchResponse: the record at offset 0, high watermark 1. */
export const oneRecordOf = (topic = 't') => recordsOf([0], topic);

/** The Fetch `fetch` answered at `at` by the broker it went to with `partition` (t-0's record at offset 0 unless said): that step's effects. */
export const fetchAnswered = (m: Driven, fetch: ReturnType<typeof sent>, at: number, partition: object = oneRecordOf()) =>
  m.send(answer('FetchResponse', fetch?.payload.correlationId as number, { partitions: [partition] }, fetch?.to ?? 'broker-0'), at);
