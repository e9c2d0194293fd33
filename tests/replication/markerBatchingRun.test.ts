/**
 * The marker channel's one-request-per-broker rule (markerChannel.ts `flushMarkers`, Kafka's
 * TransactionMarkerChannelManager with maxInFlightRequestsPerConnection = 1), through whole runs.
 *
 * 1. Two transactional producers commit on one partition at the same moment: the coordinator never
 *    has two WriteTxnMarkers in flight to its leader; the second transaction’s request goes in the
 *    step that handles the answer to the first.
 * 2. The markerLeaderless run with two producers: both commit while payments-0 has no leader (the
 *    markers of both wait in markersQueueForUnknownBroker); when the coordinator learns broker-1 leads
 *    again, ONE request carries the markers of both transactions, and both complete.
 */
import { describe, expect, it } from 'vitest';
import type { EnvelopeRecord } from '../../src/sim/kernel/envelope';
import type { Scenario } from '../../src/sim/scenario/schema';
import { runWith } from '../presets/helpers';

const producer = (id: string, commitAfterMs: number, startAt = 100) => ({
  id,
  type: 'producer',
  startAt,
  config: { 'transactional.id': `${id}-1` },
  script: [
    { op: 'beginTransaction' },
    { op: 'send', topic: 'payments', key: id, value: `from ${id}`, headers: { event_id: `evt-${id}` } },
    { op: 'sleep', ms: commitAfterMs },
    { op: 'commitTransaction' },
  ],
});

type Markers = { markers: { transactionalId: string }[] };
const carried = (e: EnvelopeRecord | undefined) => ((e?.payload as Markers | undefined)?.markers ?? []).map((m) => m.transactionalId);

/** Requests of one coordinator to one broker never overlap: each goes at or after the step that took the previous one’s answer. */
function inFlightAtOnce(envelopes: readonly EnvelopeRecord[]): number {
  const requests = envelopes.filter((e) => e.rpc === 'WriteTxnMarkers');
  const answeredAt = new Map(
    envelopes
      .filter((e) => e.rpc === 'WriteTxnMarkersResponse' && e.inReplyTo !== null)
      .map((e) => [e.inReplyTo as number, e.deliveredStep]),
  );
  let most = 0;
  for (const r of requests) {
    const open = requests.filter(
      (o) =>
        o.from === r.from && o.to === r.to && o.sentStep <= r.sentStep && (answeredAt.get(o.id) ?? Number.POSITIVE_INFINITY) > r.sentStep,
    );
    most = Math.max(most, open.length);
  }
  return most;
}

describe('two transactions committing on one leader at once', () => {
  const scenario = {
    version: 1,
    id: 'marker-one-in-flight',
    seed: 1,
    cluster: { brokers: 1 },
    topics: [{ name: 'payments', partitions: 1 }],
    clients: [producer('alpha', 500), producer('beta', 500)],
  } as unknown as Scenario;
  const r = runWith(scenario);
  const trace = r.trace;
  const markers = trace.envelopes.filter((e) => e.rpc === 'WriteTxnMarkers');

  it('both commit; each has its own request, and the second waits for the answer to the first', () => {
    expect(trace.stopReason).toBe('quiescent');
    expect(r.facts('txnState').filter((f) => f.to === 'CompleteCommit')).toHaveLength(2);
    expect(markers.map(carried)).toEqual([['alpha-1'], ['beta-1']]);
    const [first, second] = markers;
    const answer = trace.envelopes.find((e) => e.rpc === 'WriteTxnMarkersResponse' && e.inReplyTo === first?.id);
    expect(second?.sentStep).toBe(answer?.deliveredStep);
    // beta’s PrepareCommit was written while alpha’s request was in flight
    const betaPrepared = trace.steps.findIndex((s) =>
      (s.facts as { kind: string; to?: string; transactionalId?: string }[]).some(
        (f) => f.kind === 'txnState' && f.to === 'PrepareCommit' && f.transactionalId === 'beta-1',
      ),
    );
    expect(betaPrepared).toBeGreaterThan(first?.sentStep ?? Number.POSITIVE_INFINITY);
    expect(betaPrepared).toBeLessThan(answer?.deliveredStep ?? -1);
    expect(inFlightAtOnce([...trace.envelopes])).toBe(1);
    expect(r.partition('payments-0').records.map((x) => x.control)).toEqual([null, null, 'COMMIT', 'COMMIT']);
  });
});

describe('two transactions’ markers waiting for a leader go in one request', () => {
  const scenario = {
    version: 1,
    id: 'marker-leaderless-two',
    seed: 1,
    cluster: {
      brokers: 3,
      'transaction.state.log.replication.factor': 3,
      'transaction.state.log.min.isr': 1,
      'transaction.state.log.num.partitions': 1,
    },
    topics: [{ name: 'payments', replicationFactor: 2, replicas: [[1, 2]] }],
    clients: [producer('alpha', 12000), producer('beta', 12500, 150)],
    faults: [
      { type: 'crash', target: 'broker-2', at: 2000 },
      { type: 'crash', target: 'broker-1', at: 12000, durationMs: 20000 },
    ],
  } as unknown as Scenario;
  const r = runWith(scenario);
  const trace = r.trace;
  const markers = trace.envelopes.filter((e) => e.rpc === 'WriteTxnMarkers');

  it('payments-0 loses its leader before either commit; once broker-1 leads again one WriteTxnMarkers carries both markers, and both complete', () => {
    expect(trace.stopReason).toBe('quiescent');
    const leaderless = r.facts('leaderChange').find((f) => f.topic === 'payments' && f.leader === null);
    const prepared = r.facts('txnState').filter((f) => f.to === 'PrepareCommit');
    expect(prepared).toHaveLength(2);
    expect(markers.map((e) => [e.to, carried(e), e.fate])).toEqual([['broker-1', ['alpha-1', 'beta-1'], 'delivered']]);
    const sentBy = trace.steps.at(markers[0]?.sentStep ?? -1);
    expect([sentBy?.actor, sentBy?.label]).toEqual(['broker-0.txn-coordinator', 'partitionLeader']);
    expect(leaderless).toBeDefined();
    expect(r.facts('txnState').filter((f) => f.to === 'CompleteCommit')).toHaveLength(2);
    expect(r.partition('payments-0').records.map((x) => x.control)).toEqual([null, null, 'COMMIT', 'COMMIT']);
  });
});
