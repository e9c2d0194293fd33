/**
 * A reset goes out from a pass of poll()'s loop, as Kafka's: ClassicKafkaConsumer.updateFetchPositions →
 * OffsetFetcher.resetPositionsIfNeeded sends every partition AWAIT_RESET that
 * SubscriptionState.partitionsNeedingReset(now) finds due (nextAllowedRetry not ahead), one ListOffsets
 * per leader; a failed partition is not due for retry.backoff.ms (OffsetFetcherUtils
 * .onSuccessfulResponseForResettingPositions → requestFailed(partitions, now + retryBackoffMs)); while a
 * position is missing, the loop's client.poll waits at most retry.backoff.ms (pollForFetches), so the
 * retry goes at the first pass after its backoff, with every other partition due then; nothing goes out
 * between polls (assign() and seekToBeginning() only mark the partitions). Before, the model sent a
 * reset when it was asked for and each retry on a timer of its own, polling or not.
 */
import { describe, expect, it } from 'vitest';
import { consumerMachine } from '../../src/sim/consumer/consumer.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { answer } from '../machines/consumerDriver';
import { drive, inputOf } from '../machines/harness';

type Timer = Extract<Effect, { type: 'timer' }>;

/** A consumer without group.id (assign() of every partition of t: three, all led by broker-0), driven by hand with its timers. */
function reader() {
  const scenario = {
    version: 1,
    seed: 1,
    cluster: { brokers: 1 },
    topics: [{ name: 't', partitions: 3 }],
    clients: [{ id: 'c', type: 'consumer', config: { 'group.id': null, 'auto.offset.reset': 'earliest' }, topics: ['t'] }],
  };
  const m = drive(consumerMachine, inputOf(scenario, 'c.consumer'));
  const timers = new Map<string, Timer & { at: number }>();
  const listOffsets: { at: number; partitions: string[]; correlationId: number }[] = [];
  const step = (event: Record<string, unknown>, now: number): Effect[] => {
    const fx = m.send(event as never, now);
    for (const e of fx) {
      if (e.type === 'timer') timers.set(e.key, { ...e, at: now + e.delay });
      if (e.type === 'cancel') timers.delete(e.key);
      if (e.type === 'send' && e.rpc === 'ListOffsets') {
        const p = e.payload as { correlationId: number; partitions: { topic: string; partition: number }[] };
        listOffsets.push({ at: now, correlationId: p.correlationId, partitions: p.partitions.map((x) => `${x.topic}-${x.partition}`) });
      }
    }
    return fx;
  };
  /** Fires the timers due by `now` in time order (those of the ListOffsets retry and poll's pass; the others are left). */
  const advance = (now: number): void => {
    for (;;) {
      const next = [...timers.values()]
        .filter((t) => t.at <= now && (t.name === 'listOffsetsRetry' || t.name === 'pollPass'))
        .sort((a, b) => a.at - b.at)[0];
      if (!next) return;
      timers.delete(next.key);
      step({ type: next.name, key: next.key, data: next.data }, next.at);
    }
  };
  return { m, step, advance, timers, listOffsets };
}

const ok = (partition: number, offset: number) => ({ topic: 't', partition, error: 'NONE', offset });
const notLeader = (partition: number) => ({ topic: 't', partition, error: 'NOT_LEADER_OR_FOLLOWER', offset: -1 });
const listOffsetsAnswer = (correlationId: number, partitions: readonly object[]) =>
  answer('ListOffsetsResponse', correlationId, { partitions }, 'broker-0');

describe('resets go out from the passes of poll()', () => {
  it('assign() sends nothing; the first poll() asks for every partition in one ListOffsets', () => {
    const r = reader();
    r.step({ type: 'boot' }, 0);
    expect(r.listOffsets).toEqual([]);
    r.step({ type: 'poll', from: 'c.app', args: {} }, 5);
    expect(r.listOffsets.map((l) => [l.at, l.partitions])).toEqual([[5, ['t-0', 't-1', 't-2']]]);
  });

  it('a failed partition is asked at the first pass after retry.backoff.ms, grouped with every other partition due then', () => {
    const r = reader();
    r.step({ type: 'boot' }, 0);
    r.step({ type: 'poll', from: 'c.app', args: {} }, 0);
    const first = r.listOffsets[0]?.correlationId as number;
    // t-0 fails at 10 (due at 110); t-1 and t-2 get positions and are fetched
    r.step(listOffsetsAnswer(first, [notLeader(0), ok(1, 0), ok(2, 0)]), 10);
    const fetch = r.m.context<{ fetching: Record<string, number> }>().fetching['t-1'] as number;
    // at 60 the Fetch answers t-1 OFFSET_OUT_OF_RANGE: t-1 is reset at once (this pass), t-0 not due yet
    r.step(
      answer(
        'FetchResponse',
        fetch,
        {
          partitions: [
            { topic: 't', partition: 1, error: 'OFFSET_OUT_OF_RANGE', highWatermark: 0, logStartOffset: 0, batches: [] },
            { topic: 't', partition: 2, error: 'NONE', highWatermark: 0, logStartOffset: 0, batches: [] },
          ],
        },
        'broker-0',
      ),
      60,
    );
    expect(r.listOffsets.slice(1).map((l) => [l.at, l.partitions])).toEqual([[60, ['t-1']]]);
    // at 70 t-1 fails too (due at 170): that pass, like the one at 60, puts the loop's next pass retry.backoff.ms ahead
    r.step(listOffsetsAnswer(r.listOffsets[1]?.correlationId as number, [notLeader(1)]), 70);
    expect(r.timers.get('pollPass')).toMatchObject({ at: 170, background: true });
    r.advance(169);
    expect(r.listOffsets).toHaveLength(2);
    r.advance(170);
    expect(r.listOffsets.slice(2).map((l) => [l.at, l.partitions])).toEqual([[170, ['t-0', 't-1']]]);
  });

  it('nothing is sent between polls: a retry due while the application processes waits for its next poll()', () => {
    const r = reader();
    r.step({ type: 'boot' }, 0);
    r.step({ type: 'poll', from: 'c.app', args: {} }, 0);
    r.step(listOffsetsAnswer(r.listOffsets[0]?.correlationId as number, [notLeader(0), ok(1, 0), ok(2, 0)]), 10);
    const fetch = r.m.context<{ fetching: Record<string, number> }>().fetching['t-1'] as number;
    const record = { offset: 0, key: 'k', value: 'v', timestamp: 0, headers: [] };
    const batch = {
      baseOffset: 0,
      lastOffset: 0,
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
      isTransactional: false,
      isControl: false,
      records: [record],
    };
    // at 20 the Fetch brings a record of t-1: poll() returns it, the application processes until 500
    r.step(
      answer(
        'FetchResponse',
        fetch,
        {
          partitions: [
            {
              topic: 't',
              partition: 1,
              error: 'NONE',
              highWatermark: 1,
              lastStableOffset: 1,
              logStartOffset: 0,
              batches: [batch],
              abortedTransactions: [],
            },
            {
              topic: 't',
              partition: 2,
              error: 'NONE',
              highWatermark: 0,
              lastStableOffset: 0,
              logStartOffset: 0,
              batches: [],
              abortedTransactions: [],
            },
          ],
        },
        'broker-0',
      ),
      20,
    );
    expect(r.m.context<{ pollWaiting: unknown }>().pollWaiting).toBeNull();
    r.advance(400);
    expect(r.listOffsets).toHaveLength(1);
    r.step({ type: 'poll', from: 'c.app', args: {} }, 500);
    expect(r.listOffsets.slice(1).map((l) => [l.at, l.partitions])).toEqual([[500, ['t-0']]]);
  });
});
