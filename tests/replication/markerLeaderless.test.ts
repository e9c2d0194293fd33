/**
 * Markers of a partition left without a leader, through a whole run. payments has two replicas
 * (broker-1 leads, broker-2 follows); the transaction coordinator is hosted on broker-0
 * (__transaction_state replicated). broker-2 dies for good and is fenced: the ISR of payments-0
 * shrinks to [broker-1]. broker-1 dies just before the commit and is fenced: no ISR member is alive,
 * payments-0 has no leader (leader epoch 1). broker-1 returns and is elected again (epoch 2).
 *
 * Kafka (TransactionMarkerChannelManager): addTxnMarkersToBrokerQueue looks each partition's leader
 * up in the broker's metadata cache (KRaftMetadataCache.getPartitionLeaderEndpoint: Node.noNode for a
 * partition with no leader) and puts such markers in markersQueueForUnknownBroker; every loop of the
 * InterBrokerSendThread (generateRequests) looks them up again, and once a leader is known they join
 * its broker queue and go when `networkClient.ready(node)`. So nothing is sent while the partition
 * has no leader, and the markers go once the leader is known.
 *
 * Before this rule the model kept the old leader while the partition had none and sent it the
 * markers every 50 ms (its reconnect backoff): 251 refused WriteTxnMarkers in this run, the last one
 * sent when the backoff ended after broker-1 was back, not when the coordinator learned its leader.
 */
import { describe, expect, it } from 'vitest';
import type { TxnCoordinatorContext } from '../../src/sim/coordinator/txnCoordinatorContext';
import { stateAt } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { runWith } from '../presets/helpers';

const scenario = {
  version: 1,
  id: 'marker-leaderless',
  seed: 1,
  cluster: {
    brokers: 3,
    'transaction.state.log.replication.factor': 3,
    'transaction.state.log.min.isr': 1,
    'transaction.state.log.num.partitions': 1,
  },
  topics: [{ name: 'payments', replicationFactor: 2, replicas: [[1, 2]] }],
  clients: [
    {
      id: 'payment-service',
      type: 'producer',
      startAt: 100,
      config: { 'transactional.id': 'payment-service-1' },
      script: [
        { op: 'beginTransaction' },
        { op: 'send', topic: 'payments', key: 'pay-1', value: 'debit 100', headers: { event_id: 'evt-debit-1' } },
        { op: 'sleep', ms: 12000 },
        { op: 'commitTransaction' },
      ],
    },
  ],
  faults: [
    { type: 'crash', target: 'broker-2', at: 2000 },
    { type: 'crash', target: 'broker-1', at: 12000, durationMs: 20000 },
  ],
} as unknown as Scenario;

describe('markers of a partition without a leader (markersQueueForUnknownBroker)', () => {
  const r = runWith(scenario);
  const trace = r.trace;
  const coordinator = 'broker-0.txn-coordinator';
  const leaderChanges = r.facts('leaderChange').filter((f) => f.topic === 'payments');
  const stepOfLeaderChange = (leader: string | null) =>
    trace.steps.find((s) =>
      (s.facts as { kind: string; topic?: string; leader?: string | null }[]).some(
        (f) => f.kind === 'leaderChange' && f.topic === 'payments' && f.leader === leader,
      ),
    );
  const markers = trace.envelopes.filter((e) => e.rpc === 'WriteTxnMarkers');

  it('payments-0 goes without a leader (epoch 1, ISR [broker-1]), then broker-1 leads it again (epoch 2)', () => {
    expect(trace.stopReason).toBe('quiescent');
    expect(leaderChanges.map((f) => [f.leader, f.leaderEpoch, f.isr])).toEqual([
      [null, 1, ['broker-1']],
      ['broker-1', 2, ['broker-1']],
    ]);
  });

  // the steps in which the coordinator’s broker told it a leader of payments-0 (null: none)
  const leaderKnown = (i: number) =>
    (stateAt(trace, i).actors.get(coordinator)?.context as TxnCoordinatorContext | undefined)?.meta.topics.payments?.leaders[0];
  const told = trace.steps
    .filter((s) => s.actor === coordinator && s.label === 'partitionLeader')
    .map((s) => ({ t: s.t, i: s.i, leader: leaderKnown(s.i + 1) }));

  it('no WriteTxnMarkers is sent from when the coordinator learns payments-0 has no leader until it learns the new one', () => {
    const offline = stepOfLeaderChange(null)?.t ?? Number.NaN;
    const elected = stepOfLeaderChange('broker-1')?.t ?? Number.NaN;
    const learnedNone = told.find((x) => x.leader === null);
    const learnedLeader = told.find((x) => x.leader === 'broker-1' && x.i > (learnedNone?.i ?? Number.POSITIVE_INFINITY));
    expect(learnedNone?.t).toBeGreaterThanOrEqual(offline);
    expect(learnedLeader?.t).toBeGreaterThanOrEqual(elected);
    const between = markers.filter((e) => e.sentStep > (learnedNone?.i ?? 0) && e.sentStep < (learnedLeader?.i ?? 0));
    // the markers are queued when the PrepareCommit append is acknowledged (Kafka: in the append’s
    // callback, TransactionCoordinator.endTransaction → addTxnMarkersToSend), when payments-0 has no
    // leader already: none is sent until it has one
    const appended = trace.steps.find((s) => s.actor === coordinator && s.label === 'txnStateAppended' && s.t >= (learnedNone?.t ?? 0));
    expect(appended).toBeDefined();
    expect(between).toEqual([]);
  });

  it('the markers go to broker-1 when the coordinator learns it leads again, and the commit completes', () => {
    const elected = stepOfLeaderChange('broker-1')?.t ?? Number.NaN;
    const after = markers.filter((e) => e.sentAt >= elected);
    expect(after.map((e) => [e.to, e.fate])).toEqual([['broker-1', 'delivered']]);
    const sentBy = trace.steps.at(after[0]?.sentStep ?? -1);
    expect([sentBy?.actor, sentBy?.label]).toEqual([coordinator, 'partitionLeader']);
    // every marker of this run: that one
    expect(markers).toHaveLength(1);
    expect(r.facts('txnState').at(-1)?.to).toBe('CompleteCommit');
    expect(r.partition('payments-0').records.map((x) => x.control)).toEqual([null, 'COMMIT']);
  });
});
