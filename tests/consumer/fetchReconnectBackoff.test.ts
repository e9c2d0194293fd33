/**
 * The consumer's fetches and its connection states (Kafka trunk, Oct 2024):
 * AbstractFetch.prepareFetchRequests skips a partition whose node `isUnavailable` — its connection
 * failed and it is still in its reconnect backoff ("Skipping fetch for partition … because node … is
 * awaiting reconnect backoff"; NetworkClientUtils.isUnavailable) — and a failed Fetch arms no retry
 * timer of its own (handleFetchFailure only forgets the request). The backoff doubles per failed
 * connection attempt: reconnect.backoff.ms 50 up to reconnect.backoff.max.ms 1000.
 *
 * On the old code a lost Fetch was sent again after retry.backoff.ms (100) every time: the audit's
 * failover run (the leader of the fetched partition dead) sent 76 Fetches to the dead leader in
 * 7.4 s, where Kafka's consumer tries about 11 times.
 */
import { describe, expect, it } from 'vitest';
import { disconnected } from '../../src/sim/cluster/connectionStates';
import { onPoll } from '../../src/sim/consumer/commits';
import { onRequestLost } from '../../src/sim/consumer/requestLost';
import { failoverOrders } from '../fixtures/failoverOrders';
import { runWith } from '../presets/helpers';
import { appCall, context, run, sent, timers, tp0 } from './fixture';

const RECONNECT = { 'reconnect.backoff.ms': 50, 'reconnect.backoff.max.ms': 1000 };

describe('prepareFetchRequests: a leader in its reconnect backoff is skipped', () => {
  const assigned = context({}, 1, { assignment: [tp0], positions: { 't-0': 0 } });
  const leader = assigned.meta.topics.t?.leaders[0] as string;

  it('a waiting poll() sends no Fetch to it; once the backoff is over it does', () => {
    const skipped = run({ ...assigned, connections: disconnected(assigned.connections, leader, 0, RECONNECT) }, (d, out) =>
      onPoll(d, appCall('poll', {}, 10), out),
    );
    expect(sent(skipped.effects).filter((s) => s.rpc === 'Fetch')).toEqual([]);
    const fetched = run(assigned, (d, out) => onPoll(d, appCall('poll', {}, 10), out));
    expect(sent(fetched.effects).filter((s) => s.rpc === 'Fetch')).toMatchObject([{ to: leader, partitions: [{ partition: 0 }] }]);
  });

  it('a lost Fetch arms no retry timer of its own (the reconnect backoff decides when the leader is tried again)', () => {
    const lost = run({ ...assigned, fetching: { 't-0': 7 }, fetchingFrom: { [leader]: 7 }, pollWaiting: 'c.app' }, (d, out) => {
      // the disconnect has put the leader in its backoff before the handler runs (NetworkClient first)
      d.connections = disconnected(d.connections, leader, 100, RECONNECT);
      onRequestLost(
        d,
        {
          type: 'disconnected',
          now: 100,
          envelopeId: 3,
          to: leader,
          rpc: 'Fetch',
          payload: { correlationId: 7, partitions: [{ topic: 't', partition: 0, fetchOffset: 0 }] },
          timedOut: false,
          reason: 'peer-down',
        },
        out,
      );
    });
    expect(lost.d.fetching).toEqual({});
    expect(lost.d.fetchingFrom).toEqual({});
    expect(timers(lost.effects).map((t) => t.name)).not.toContain('fetchRetry');
    expect(sent(lost.effects)).toEqual([]);
  });
});

/** The audit's failover-hw: broker-0, leader of orders-0, crashes at 3600 for 20 s; fenced at 11001. */
const failoverHw = failoverOrders({
  id: 'audit-failover-hw',
  title: "A consumer positioned above a new leader's HW",
  secondAt: 12000,
  readers: [
    {
      id: 'reader',
      type: 'consumer',
      config: { 'group.id': 'reader', 'auto.offset.reset': 'earliest' },
      topics: ['orders'],
      processing: { mode: 'at-least-once' },
    },
  ],
  faults: [{ type: 'crash', target: 'broker-0', at: 3600, durationMs: 20000 }],
});

describe('a consumer whose leader is down (audit-net finding 2)', () => {
  const r = runWith(failoverHw);
  const fetches = r.trace.envelopes.filter((e) => e.rpc === 'Fetch' && e.from === 'reader.consumer');

  it('11 Fetches are lost to the dead broker-0 — the one in flight at the crash, then one connection attempt per reconnect backoff — before the new leader is known (the old model: 76)', () => {
    const toDead = fetches.filter((e) => e.to === 'broker-0' && e.sentAt >= 3600 && e.sentAt < 11123);
    // the attempts, one per reconnect backoff: 50, 100, 200, 400, 800 ms, then every 1000 ms
    expect(toDead.length).toBe(10);
    const refused = r.trace.steps.filter(
      (s) => s.actor === 'reader.consumer' && s.kind === 'disconnected' && s.from === 'broker-0' && s.t > 3600 && s.t < 11123,
    );
    // the Fetch in flight at the crash, then each attempt, fails
    expect(refused.length).toBe(11);
    const waits = toDead.map((e, i) => e.sentAt - (refused[i]?.t as number));
    expect(waits).toEqual([50, 100, 200, 400, 800, 1000, 1000, 1000, 1000, 1000]);
    // and it resumes from the new leader as before: right after the Metadata answer that names it (a
    // node it has no failure with) it validates its position there (KIP-320: the leader epoch
    // changed), then fetches — the OffsetsForLeaderEpoch's round trip (2 ms) later
    const validated = r.trace.envelopes.find((e) => e.rpc === 'OffsetsForLeaderEpoch' && e.from === 'reader.consumer');
    expect([validated?.to, validated?.sentAt]).toEqual(['broker-1', 11123]);
    expect(fetches.find((e) => e.to === 'broker-1')?.sentAt).toBe(11125);
    expect(r.received('reader').map((x) => x.offset)).toEqual([0, 1]);
  });
});
