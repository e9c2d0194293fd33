/**
 * Worked cases, the transaction coordinator's marker channel: when a WriteTxnMarkers is sent again
 * and where. Expected outcomes written from Kafka's source (trunk of October 2024, the 4.0 line)
 * before the scenarios were run: TransactionMarkerChannelManager (apply, generateRequests,
 * addTxnMarkersToBrokerQueue), TransactionMarkerRequestCompletionHandler.onComplete,
 * InterBrokerSendThread (pollOnce, sendRequests, checkDisconnects), NetworkClient.
 */
import { describe, expect, it } from 'vitest';
import type { Fact } from '../../src/sim/trace/facts';
import { run, type WorkedRun } from './helpers';

const timeOfFirst = (r: WorkedRun, match: (f: Fact) => boolean) => r.timeOf(r.stepOf(match));
const markerErrors = (r: WorkedRun) =>
  r.rpcs('WriteTxnMarkersResponse').map((e) => (e.payload.markers as { partitions: { error: string }[] }[])[0]?.partitions[0]?.error);

describe('worked cases: how soon a refused marker is sent again', () => {
  /*
   * txn-markers-under-min-isr (the scenario of transactionalProducerErrors.test.ts, looked at for the
   * retry cadence). t-0 on broker-0 and broker-1, min.insync.replicas=2; broker-1 dies at 1000 (ISR
   * [broker-0] from its fence) and returns at 20000; p commits at 12000.
   * - Every WriteTxnMarkers is refused NOT_ENOUGH_REPLICAS at once (Partition.appendRecordsToLeader,
   *   requiredAcks −1 below min ISR). TransactionMarkerRequestCompletionHandler.onComplete puts the
   *   marker back with addTxnMarkersToBrokerQueue, which ends with wakeup(); the send thread's next
   *   pollOnce drains it into a new request (generateRequests) and sends it at once — the node
   *   answered, so networkClient.ready(node) holds (no reconnect backoff), and nothing else is in
   *   flight to it (maxInFlightRequestsPerConnection 1). No retry.backoff.ms anywhere on this path:
   *   the channel's NetworkClient has a ManualMetadataUpdater and no backoff of its own but the
   *   reconnect one (50/50 ms, after a disconnect only), and InterBrokerSendThread.doWork polls with
   *   Long.MAX_VALUE, bounded by request.timeout.ms and cut short by the wakeup.
   * - So Kafka sends it again as soon as the answer arrives: one request per round trip (2 ms on the
   *   model's network), about 4000 while broker-1 is away.
   * - The model waits 100 ms after each such answer (markerChannel.ts MARKER_RETRY_PAUSE_MS, said in
   *   kafka-model.md): a retry every 102 ms, about 80 requests. Its 100 is not retry.backoff.ms (whose
   *   default it happens to equal): it only keeps a spell below min ISR from filling the timeline.
   *   Asserted as the model has it.
   */
  it('txn-markers-under-min-isr: each NOT_ENOUGH_REPLICAS is sent again 100 ms after its answer (Kafka: at the answer)', () => {
    const r = run('txn-markers-under-min-isr.json');
    const sends = r.rpcs('WriteTxnMarkers');
    const answers = r.rpcs('WriteTxnMarkersResponse');
    expect(
      markerErrors(r)
        .slice(0, -1)
        .every((e) => e === 'NOT_ENOUGH_REPLICAS'),
    ).toBe(true);
    const gaps = sends.slice(1).map((s, i) => s.sentAt - (answers[i]?.deliverAt ?? Number.NaN));
    expect(new Set(gaps.slice(0, -1))).toEqual(new Set([100]));
    expect(sends.length).toBeGreaterThan(70);
    expect(sends.length).toBeLessThan(85);
  });

  /*
   * marker-refused-by-deposed-leader (protocol 2). t-0 on broker-0 (preferred) and broker-1;
   * leader.imbalance.check.interval.seconds 2. broker-0 is shut down cleanly at 100 and back 200 ms
   * after it stopped: broker-1 leads (epoch 1) and broker-0 rejoins the ISR. p writes k0 at 1000 and
   * commits at 1500; the COMMIT marker to broker-1 is delayed 1000 ms. At the imbalance check the
   * controller moves the leadership back to broker-0 (preferred election, epoch 2), broker-1 still up.
   * - EndTxn answered at the PrepareCommit write (1501); the marker to broker-1 (the leader in the
   *   coordinator's broker's cache then) arrives at 2502, after the move: broker-1 is a follower →
   *   NOT_LEADER_OR_FOLLOWER (ReplicaManager.appendRecords → getPartitionOrError).
   * - onComplete: retriable → addTxnMarkersToBrokerQueue, which reads getPartitionLeaderEndpoint
   *   afresh: the record of the move reached the coordinator's broker as it reached broker-1, so the
   *   cache names broker-0; the marker goes there on the next loop, at once (2503).
   * - broker-0 appends COMMIT at offset 1 (epoch 1), answers when the HW passes it; CompleteCommit.
   * - **Changed** (2026-12-07): the one-replica coordinator had no cache (it looked the leader up with
   *   a Metadata request) and a refused marker waited 100 ms whatever the cache said; now it is told
   *   the move by broker-0 as broker-0 applies the record, and a marker refused by a broker the cache
   *   no longer names goes at once.
   */
  it('marker-refused-by-deposed-leader: refused NOT_LEADER_OR_FOLLOWER by the deposed leader, the marker goes at once to the leader the cache names', () => {
    const r = run('marker-refused-by-deposed-leader.json');
    expect(r.facts('leaderChange').map((f) => `${f.leader}@${f.leaderEpoch} ${f.election}`)).toEqual([
      'broker-1@1 clean',
      'broker-0@2 preferred',
    ]);
    const moved = timeOfFirst(r, (f) => f.kind === 'leaderChange' && f.election === 'preferred');
    expect(moved).toBeLessThan(2502);
    expect(r.rpcs('WriteTxnMarkers').map((e) => `${e.to}@${e.sentAt}`)).toEqual(['broker-1@1501', 'broker-0@2503']);
    expect(markerErrors(r)).toEqual(['NOT_LEADER_OR_FOLLOWER', 'NONE']);
    expect(r.rpcs('Metadata', 'txn-coordinator')).toEqual([]);
    expect(r.log('t-0')).toEqual(['0 k0 p e0 s0 T', '1 COMMIT p e1 s-1 T']);
    expect(r.txnStates('p-txn')).toEqual(['(new)→Empty@0', 'Empty→Ongoing@0', 'Ongoing→PrepareCommit@1', 'PrepareCommit→CompleteCommit@1']);
    expect(timeOfFirst(r, (f) => f.kind === 'txnState' && f.to === 'CompleteCommit')).toBe(2507);
    expect(r.received('rc').map((x) => `${x.key}@${x.offset}`)).toEqual(['k0@0']);
  });
});
