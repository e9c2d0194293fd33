/**
 * KIP-320: the consumer validates its position after a leader epoch change (OffsetsForLeaderEpoch)
 * and detects log truncation (SubscriptionState.maybeValidatePositionForCurrentLeader /
 * maybeCompleteValidation, OffsetFetcher.validatePositionsIfNeeded). On the old model the position
 * was kept as it was: after an unclean election the consumer skipped the new leader's records
 * between the divergence point and its position.
 */
import { describe, expect, it } from 'vitest';
import { onOffsetFetchResponse } from '../../src/sim/consumer/commits';
import type { ConsumerContext, ConsumerInput } from '../../src/sim/consumer/consumerContext';
import { initialContext } from '../../src/sim/consumer/consumerContext';
import type { EventOf } from '../../src/sim/consumer/events';
import { fetchWhilePolling, onFetchResponse } from '../../src/sim/consumer/fetcher';
import { resetPositionsIfNeeded } from '../../src/sim/consumer/offsetFetcher';
import { onSeek, onSeekToCommitted } from '../../src/sim/consumer/positions';
import { onOffsetsForLeaderEpochResponse, onValidationRetry } from '../../src/sim/consumer/positionValidation';
import { runScenario } from '../../src/sim/run';
import { summarize } from '../../src/sim/trace/summary';
import { plainBatch } from '../fixtures/plainBatch';
import { inputOf } from '../machines/harness';
import { appCall, replies, response, run, sent as sentRequests, timers, tp0 } from './fixture';

/** The requests sent; a Fetch (one per broker) flattened to its one partition here, all of them of `t-0`. */
const sent = (effects: Parameters<typeof sentRequests>[0]) =>
  sentRequests(effects).map((r) => {
    if (r.rpc !== 'Fetch') return r;
    const [only, ...more] = r.partitions as Record<string, unknown>[];
    expect(more).toEqual([]);
    return { ...r, ...only };
  });

/** A consumer of `t` (one partition, two replicas: its leader can move). */
function replicated(config: Record<string, unknown> = {}, overrides: Partial<ConsumerContext> = {}): ConsumerContext {
  const scenario = {
    version: 1,
    seed: 1,
    cluster: { brokers: 3 },
    topics: [{ name: 't', partitions: 1, replicationFactor: 2 }],
    clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g', ...config }, topics: ['t'] }],
  };
  return { ...initialContext(inputOf(scenario, 'c.consumer') as ConsumerInput), assignment: [tp0], pollWaiting: 'c.app', ...overrides };
}

/** The metadata after a leader change: broker-1 leads `t-0` in `epoch`. */
const newLeader = (ctx: ConsumerContext, epoch: number): ConsumerContext['meta'] => {
  const t = ctx.meta.topics.t as NonNullable<ConsumerContext['meta']['topics'][string]>;
  return { ...ctx.meta, topics: { ...ctx.meta.topics, t: { ...t, leaders: ['broker-1'], leaderEpochs: [epoch] } } };
};

/** Records baseOffset..lastOffset in one batch of leader epoch `partitionLeaderEpoch`. */
const batch = (baseOffset: number, lastOffset: number, partitionLeaderEpoch: number) =>
  plainBatch(
    Array.from({ length: lastOffset - baseOffset + 1 }, (_, i) => ({ offset: baseOffset + i })),
    partitionLeaderEpoch,
  );

/** A consumer that consumed up to offset 3 in leader epoch 0 (checked against leader epoch 0). */
const consumedTo3 = (config: Record<string, unknown> = {}) =>
  replicated(config, {
    positions: { 't-0': 3 },
    validation: { offsetEpochs: { 't-0': { offset: 3, epoch: 0 } }, leaderEpochs: { 't-0': 0 }, awaiting: {}, fetched: {} },
  });

const answer = (correlationId: number, endOffset: number, leaderEpoch: number, error = 'NONE') =>
  response(
    'OffsetsForLeaderEpochResponse',
    { correlationId, partitions: [{ ...tp0, error, leaderEpoch, endOffset }] },
    100,
  ) as unknown as EventOf<'OffsetsForLeaderEpochResponse'>;

/** The consumer after a leader change to epoch 2, its OffsetsForLeaderEpoch sent. */
function validating(config: Record<string, unknown> = {}) {
  const ctx = consumedTo3(config);
  return run({ ...ctx, meta: newLeader(ctx, 2) }, fetchWhilePolling);
}

describe('KIP-320 position validation (consumer)', () => {
  it('the position carries the leader epoch of the batch its last record came from (offsetEpoch)', () => {
    const ctx = replicated({}, { positions: { 't-0': 0 }, fetching: { 't-0': 7 } });
    const fetched = response('FetchResponse', {
      correlationId: 7,
      partitions: [
        {
          ...tp0,
          error: 'NONE',
          highWatermark: 5,
          lastStableOffset: 5,
          logStartOffset: 0,
          batches: [batch(0, 1, 0), batch(2, 4, 3)],
          abortedTransactions: [],
        },
      ],
    }) as unknown as EventOf<'FetchResponse'>;
    const { d } = run(ctx, (d, out) => onFetchResponse(d, fetched, out));
    expect(d.positions['t-0']).toBe(5);
    expect(d.validation.offsetEpochs['t-0']).toEqual({ offset: 5, epoch: 3 });
  });

  it('a new leader epoch puts a position with an offsetEpoch in AWAIT_VALIDATION: OffsetsForLeaderEpoch to the new leader, no Fetch', () => {
    const { d, effects } = validating();
    expect(sent(effects)).toEqual([
      {
        rpc: 'OffsetsForLeaderEpoch',
        to: 'broker-1',
        correlationId: expect.any(Number),
        partitions: [{ ...tp0, currentLeaderEpoch: 2, leaderEpoch: 0 }],
      },
    ]);
    expect(d.validation.awaiting['t-0']).toMatchObject({ offset: 3, offsetEpoch: 0, leaderEpoch: 2, state: 'inFlight' });
    // the same leader epoch: no validation, the partition is fetched
    expect(sent(run(consumedTo3(), fetchWhilePolling).effects)).toMatchObject([{ rpc: 'Fetch', fetchOffset: 3, currentLeaderEpoch: 0 }]);
  });

  it('a position without an offsetEpoch (set by a seek, a reset or a committed offset) skips validation', () => {
    const ctx = replicated(
      {},
      { positions: { 't-0': 3 }, validation: { offsetEpochs: {}, leaderEpochs: { 't-0': 0 }, awaiting: {}, fetched: {} } },
    );
    const { effects } = run({ ...ctx, meta: newLeader(ctx, 2) }, fetchWhilePolling);
    expect(sent(effects)).toMatchObject([{ rpc: 'Fetch', to: 'broker-1', fetchOffset: 3, currentLeaderEpoch: 2 }]);
  });

  it('seek() to the offset awaiting validation ends the validation: the partition is fetched there, and the late answer changes nothing', () => {
    // ClassicKafkaConsumer.seek → seekUnvalidated(FetchPosition(offset, Optional.empty(), …)): FETCHING
    const v = validating({ 'auto.offset.reset': 'earliest' });
    const correlationId = sent(v.effects)[0]?.correlationId as number;
    const seeked = run(v.d, (d, out) => onSeek(d, appCall('seek', { ...tp0, offset: 3 }) as EventOf<'seek'>, out));
    expect(sent(seeked.effects)).toMatchObject([{ rpc: 'Fetch', fetchOffset: 3 }]);
    // the answer that would have found a truncation: no longer expected (maybeCompleteValidation)
    const { d, effects } = run(seeked.d, (d, out) => onOffsetsForLeaderEpochResponse(d, answer(correlationId, 1, 0), out));
    expect(d.positions['t-0']).toBe(3);
    expect(effects.filter((e) => e.type === 'fact')).toEqual([]);
  });

  it('seekToCommitted while a validation is awaited: a committed offset without a leader epoch is fetched at once, even at the same offset', () => {
    // refreshCommittedOffsets → seekUnvalidated with no leaderEpoch: FETCHING, the old offsetEpoch gone
    const v = validating();
    const asked = run(v.d, (d, out) => onSeekToCommitted(d, appCall('seekToCommitted', {}) as EventOf<'seekToCommitted'>, out));
    const offsets = sent(asked.effects).find((r) => r.rpc === 'OffsetFetch');
    const committed = response('OffsetFetchResponse', {
      correlationId: offsets?.correlationId as number,
      error: 'NONE',
      offsets: [{ ...tp0, offset: 3, error: 'NONE' }],
    }) as unknown as EventOf<'OffsetFetchResponse'>;
    const { d, effects } = run(asked.d, (d, out) => onOffsetFetchResponse(d, committed, out));
    expect(sent(effects)).toMatchObject([{ rpc: 'Fetch', fetchOffset: 3, currentLeaderEpoch: 2 }]);
    expect(d.validation.awaiting).toEqual({});
  });

  it('the epoch ends below the position: truncation detected, the position goes back to the end offset and is fetched from there', () => {
    const v = validating({ 'auto.offset.reset': 'earliest' });
    const correlationId = sent(v.effects)[0]?.correlationId as number;
    const { d, effects } = run(v.d, (d, out) => onOffsetsForLeaderEpochResponse(d, answer(correlationId, 1, 0), out));
    expect(d.positions['t-0']).toBe(1);
    expect(d.validation.awaiting).toEqual({});
    expect(d.validation.offsetEpochs['t-0']).toEqual({ offset: 1, epoch: 0 });
    expect(sent(effects)).toMatchObject([{ rpc: 'Fetch', to: 'broker-1', fetchOffset: 1 }]);
    expect(
      effects.some(
        (e) => e.type === 'fact' && e.fact.kind === 'note' && /truncation detected/.test((e.fact as { text?: string }).text ?? ''),
      ),
    ).toBe(true);
  });

  it('the epoch ends at or past the position: the position is valid and fetched as it is', () => {
    const v = validating();
    const correlationId = sent(v.effects)[0]?.correlationId as number;
    const { d, effects } = run(v.d, (d, out) => onOffsetsForLeaderEpochResponse(d, answer(correlationId, 3, 0), out));
    expect(d.positions['t-0']).toBe(3);
    expect(d.validation.awaiting).toEqual({});
    expect(sent(effects)).toMatchObject([{ rpc: 'Fetch', fetchOffset: 3 }]);
  });

  it('no such epoch on the leader (−1): auto.offset.reset resets the position (ListOffsets)', () => {
    const v = validating({ 'auto.offset.reset': 'earliest' });
    const correlationId = sent(v.effects)[0]?.correlationId as number;
    const { d, effects } = run({ ...v.d, pollWaiting: 'c.app' }, (d, out) => {
      onOffsetsForLeaderEpochResponse(d, answer(correlationId, -1, -1), out);
      resetPositionsIfNeeded(d, 0, out);
    });
    expect(d.positions['t-0']).toBeUndefined();
    expect(sent(effects)).toMatchObject([{ rpc: 'ListOffsets', partitions: [{ topic: 't', partition: 0, timestamp: -2 }] }]);
  });

  it('auto.offset.reset=none: poll() throws LogTruncationException, the position stays unfetched', () => {
    const v = validating({ 'auto.offset.reset': 'none' });
    const correlationId = sent(v.effects)[0]?.correlationId as number;
    const { d, effects } = run(v.d, (d, out) => onOffsetsForLeaderEpochResponse(d, answer(correlationId, 1, 0), out));
    expect(replies(effects)).toEqual([{ call: 'poll', ok: false, error: 'LogTruncationException' }]);
    expect(d.positions['t-0']).toBe(3);
    expect(sent(effects)).toEqual([]);
  });

  it('an error answer (FENCED_LEADER_EPOCH): a metadata update, asked again after retry.backoff.ms', () => {
    const v = validating();
    const correlationId = sent(v.effects)[0]?.correlationId as number;
    const { d, effects } = run(v.d, (d, out) =>
      onOffsetsForLeaderEpochResponse(d, answer(correlationId, -1, -1, 'FENCED_LEADER_EPOCH'), out),
    );
    expect(d.metadata.updateRequested).toBe(true);
    expect(timers(effects)).toContainEqual({ name: 'validationRetry', delay: d.config['retry.backoff.ms'] });
    expect(sent(effects)).toEqual([]);
    const retry = {
      type: 'validationRetry',
      key: 'validationRetry:t-0',
      now: 200,
      data: { partition: 't-0' },
    } as EventOf<'validationRetry'>;
    expect(sent(run(d, (d, out) => onValidationRetry(d, retry, out)).effects)).toMatchObject([
      { rpc: 'OffsetsForLeaderEpoch', partitions: [{ currentLeaderEpoch: 2, leaderEpoch: 0 }] },
    ]);
  });
});

/**
 * An unclean election: billing reads e1–e3 from broker-0 (leader epoch 0); broker-0 dies, broker-1,
 * which never had e2 and e3, is elected uncleanly (epoch 2) and e4–e6 land at offsets 1–3.
 */
const unclean = (reset: string) => ({
  version: 1,
  seed: 1,
  cluster: { brokers: 3 },
  topics: [{ name: 'orders', replicationFactor: 2, config: { 'unclean.leader.election.enable': true } }],
  clients: [
    {
      id: 'orders-service',
      type: 'producer',
      config: { acks: 'all' },
      script: [
        { op: 'send', topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } },
        ...['e2', 'e3'].map((e) => ({ op: 'send', at: 12000, topic: 'orders', key: 'k', value: e, headers: { event_id: e } })),
        ...['e4', 'e5', 'e6'].map((e) => ({ op: 'send', at: 25000, topic: 'orders', key: 'k', value: e, headers: { event_id: e } })),
      ],
    },
    { id: 'billing', type: 'consumer', config: { 'group.id': 'billing', 'auto.offset.reset': reset }, topics: ['orders'], startAt: 100 },
  ],
  faults: [
    // a committed offset to start from (auto.offset.reset=none has no other)
    { type: 'resetOffsets', at: 0, group: 'billing', topic: 'orders', to: 0 },
    { type: 'crash', target: 'broker-1', at: 1000, durationMs: 30000 },
    { type: 'crash', target: 'broker-0', at: 14000, durationMs: 40000 },
  ],
});

describe('KIP-320 through an unclean election', () => {
  it('truncation detected: the consumer goes back to offset 1 and reads the new leader’s records there (e4, e5)', () => {
    const trace = runScenario(unclean('earliest'));
    const asked = [...trace.envelopes].filter((e) => e?.rpc === 'OffsetsForLeaderEpoch');
    expect(asked).toHaveLength(1);
    const verdict = summarize(trace).verdict;
    const processed = (id: string) =>
      Object.values(verdict.events.find((e) => e.eventId === id)?.processed ?? {}).reduce((a, b) => a + b, 0);
    // the old model kept position 3 and read only e6: e4 and e5 were never delivered
    for (const id of ['e1', 'e2', 'e3', 'e4', 'e5', 'e6']) expect(processed(id)).toBe(1);
  });

  it('auto.offset.reset=none: poll() throws LogTruncationException and the application stops', () => {
    const trace = runScenario(unclean('none'));
    const app = trace.checkpoints.at(-1)?.actors.find(([id]) => id === 'billing.app')?.[1] as { context: { stopped?: string } } | undefined;
    expect(app?.context.stopped).toContain('LogTruncationException');
  });
});
