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

/**
 * A consumer (`input`, e.g. inputOf(scenario, 'c.consumer')) booted and answered as the leader of
 * generation 1 at 10 ms: the machine, the SyncGroup it sent next, and every effect of that answer.
 */
export function joinedAsLeader(input: unknown): { m: Driven; sync: ReturnType<typeof sent>; joined: Effect[] } {
  const m = drive(consumerMachine, input);
  const join = sent(m.send({ type: 'boot' }, 0), 'JoinGroup');
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

/** SyncGroup answers with `partitions`: the effects of that step (the OffsetFetch for the positions). */
export function synced(m: Driven, sync: ReturnType<typeof sent>, partitions: readonly { topic: string; partition: number }[]): Effect[] {
  return m.send(answer('SyncGroupResponse', sync?.payload.correlationId as number, { error: 'NONE', assignment: partitions }), 20);
}

/**
 * OffsetFetch `offsets` answered at `at` with the committed offset 0 for t-0: the effects of that step
 * (a Fetch only if a poll() waits). `from` the coordinator that answers.
 */
export function positionsFetched(m: Driven, offsets: ReturnType<typeof sent>, at = 30, from = 'group-coordinator'): Effect[] {
  return m.send(
    answer(
      'OffsetFetchResponse',
      offsets?.payload.correlationId as number,
      { error: 'NONE', offsets: [{ topic: 't', partition: 0, offset: 0, error: 'NONE' }] },
      from,
    ),
    at,
  );
}

/** t-0's part of a FetchResponse: one plain batch with the record at offset 0, high watermark 1. */
export const oneRecordOfT0 = () => ({
  error: 'NONE',
  topic: 't',
  partition: 0,
  highWatermark: 1,
  lastStableOffset: 1,
  logStartOffset: 0,
  batches: [plainBatch([{ offset: 0 }])],
  abortedTransactions: [],
});

/** broker-0 answers the Fetch `fetch` at `at` with `partition` (t-0's record at offset 0 unless said): that step's effects. */
export const fetchAnswered = (m: Driven, fetch: ReturnType<typeof sent>, at: number, partition: object = oneRecordOfT0()) =>
  m.send(answer('FetchResponse', fetch?.payload.correlationId as number, { partitions: [partition] }, 'broker-0'), at);

/**
 * After `sync` (joinedAsLeader's): SyncGroup assigns t-0 at 20, OffsetFetch answers offset 0 at 30,
 * the application calls poll() at 35 and the Fetch's answer at 40 returns the record at offset 0 —
 * the member STABLE, its first record polled. The Fetch, and the effects of its answer (poll()'s
 * reply and the prefetch).
 */
export function firstRecordPolled(m: Driven, sync: ReturnType<typeof sent>): { fetch: ReturnType<typeof sent>; returned: Effect[] } {
  positionsFetched(m, sent(synced(m, sync, [{ topic: 't', partition: 0 }]), 'OffsetFetch'));
  const fetch = sent(m.send({ type: 'poll', from: 'c.app', args: {} }, 35), 'Fetch');
  return { fetch, returned: fetchAnswered(m, fetch, 40) };
}
