/**
 * The classic KafkaConsumer sends Fetch requests only from inside poll(): ClassicKafkaConsumer.poll →
 * pollForFetches (collectFetch; nothing there → sendFetches, then client.poll), on each pass of
 * poll's loop while its timer runs; and once as poll() returns records, before it returns ("we can
 * send off the next round of fetches … while the user is handling the fetched records":
 * `sendFetches()` then `client.transmitSends()`). Nothing else calls Fetcher.sendFetches — not the
 * heartbeat thread — so while the application processes a batch, at most that one prefetch is out,
 * and an answer that arrives meanwhile waits in the fetch buffer for the next poll(). On the old
 * code the consumer fetched whenever a partition had nothing buffered and nothing in flight, poll()
 * or not: a 2 s processing time gave a stream of 500 ms long polls nobody asked for.
 */
import { describe, expect, it } from 'vitest';
import { onPoll } from '../../src/sim/consumer/commits';
import { onFetchResponse } from '../../src/sim/consumer/fetcher';
import { costOfRun } from '../../src/sim/cost/costOfRun';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { appCall, context, response, run, sent, tp0 } from './fixture';

/**
 * Two orders at once, a third 3 s later; billing reads one record per poll() (max.poll.records=1)
 * and processes each for 2 s. fetch.max.wait.ms is the default 500.
 */
const scenario = {
  version: 1,
  seed: 1,
  run: { maxTimeMs: 11000 },
  topics: [{ name: 'orders', partitions: 1 }],
  clients: [
    {
      id: 'orders-service',
      type: 'producer',
      script: [
        ...[1, 2].map((i) => ({
          op: 'send',
          topic: 'orders',
          key: `order-${i}`,
          value: `OrderCreated #${i}`,
          headers: { event_id: `evt-${i}` },
        })),
        { op: 'flush' },
        { op: 'sleep', ms: 3000 },
        { op: 'send', topic: 'orders', key: 'order-3', value: 'OrderCreated #3', headers: { event_id: 'evt-3' } },
        { op: 'flush' },
      ],
    },
    {
      id: 'billing',
      type: 'consumer',
      config: { 'group.id': 'billing', 'auto.offset.reset': 'earliest', 'enable.auto.commit': false, 'max.poll.records': 1 },
      topics: ['orders'],
      processing: { mode: 'at-least-once', processingMs: 2000 },
    },
  ],
};

const CONSUMER = 'billing.consumer';

/** Where each of the consumer's Fetches went out: inside a waiting poll(), as a poll() returned records, or between polls. */
function fetchesOf(t: Trace) {
  const when = new Map<number, 'in poll' | 'prefetch' | 'between polls'>();
  let waiting = false;
  for (const s of t.steps) {
    if (s.actor !== CONSUMER) continue;
    if (s.kind === 'call' && s.label === 'poll') waiting = true;
    const returned = (s.facts as Fact[]).some((f) => f.kind === 'delivered');
    when.set(s.i, returned ? 'prefetch' : waiting ? 'in poll' : 'between polls');
    if (returned) waiting = false;
  }
  return [...t.envelopes]
    .filter((e) => e.rpc === 'Fetch' && e.from === CONSUMER)
    .map((e) => ({
      at: e.sentAt,
      offset: (e.payload.partitions as { fetchOffset: number }[])[0]?.fetchOffset,
      when: when.get(e.sentStep),
    }));
}

/** When the consumer received the application's poll() calls. */
const pollCalls = (t: Trace) => t.steps.filter((s) => s.actor === CONSUMER && s.kind === 'call' && s.label === 'poll').map((s) => s.t);

describe('the consumer fetches only inside poll()', () => {
  const t = runScenario(scenario);
  const fetches = fetchesOf(t);

  it('while the application processes, no Fetch goes out but the prefetch of the poll() that returned its records', () => {
    expect(fetches.filter((f) => f.when === 'between polls')).toEqual([]);
  });

  it("the run's Fetches: one in the first poll(), a prefetch per poll() that drained the buffer, then the last poll()'s long polls", () => {
    const [, , , last] = pollCalls(t);
    expect(last).toBeDefined();
    // the poll() that finds nothing buffered sends its Fetch at once, and another after each empty answer
    // (fetch.max.wait.ms = 500 at the broker, 1 ms each way)
    expect(fetches).toEqual([
      // poll #1 waits through the join; the offsets known, it fetches orders 1 and 2 and returns order 1
      { at: 3010, offset: 0, when: 'in poll' },
      // poll #2 returns order 2 from the buffer, which is then empty: the prefetch, answered at once with order 3
      { at: 5014, offset: 2, when: 'prefetch' },
      // poll #3 returns order 3 (buffered since 5016): the prefetch, a long poll that ends empty while the application processes
      { at: 7016, offset: 3, when: 'prefetch' },
      // poll #4 finds nothing buffered: it fetches, and again after each empty answer, until the run ends
      ...[0, 502, 1004, 1506].map((d) => ({ at: (last as number) + d, offset: 3, when: 'in poll' })),
    ]);
  });

  it('the cost panel counts those seven Fetches', () => {
    expect(costOfRun(t, summarize(t)).requests.Fetch).toBe(7);
  });
});

describe('an answer that arrives between polls waits for the next poll()', () => {
  const between = context({}, 1, { assignment: [tp0], positions: { 't-0': 3 }, fetching: { 't-0': 5 }, pollWaiting: null });
  const empty = response('FetchResponse', {
    correlationId: 5,
    partitions: [{ ...tp0, error: 'NONE', highWatermark: 3, lastStableOffset: 3, logStartOffset: 0, batches: [], abortedTransactions: [] }],
  } as never);

  it('an empty answer (a long poll that expired) while the application processes: no Fetch; the next poll() sends it', () => {
    const answered = run(between, (d, out) => onFetchResponse(d, empty, out));
    expect(sent(answered.effects)).toEqual([]);
    const polled = run(answered.d, (d, out) => onPoll(d, appCall('poll', {}, 600), out));
    expect(sent(polled.effects)).toMatchObject([{ rpc: 'Fetch', partitions: [{ partition: 0, fetchOffset: 3 }] }]);
  });
});
