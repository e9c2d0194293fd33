/**
 * An open transaction across its leader's clean restart (a controlled shutdown and a start again).
 * Kafka's producer-state snapshot holds each producer's open transaction's first offset
 * (ProducerStateManager.writeSnapshot: `currentTxnFirstOffset`), and loading it puts the transaction
 * back among the ongoing ones (`loadFromSnapshot` → `loadProducerEntry`: `ongoingTxns.put`; an entry
 * with an open transaction is never left out as expired, `isProducerExpired`). So a restarted broker
 * that becomes leader while the transaction is still open holds the LSO at its first offset: a
 * read_committed reader sees neither the transaction's record nor a plain record written after it
 * until the commit marker, which the restarted leader writes and which ends the transaction there.
 *
 * The run: three brokers, orders with three replicas; batch-job writes e1 in a transaction at once
 * and commits at 12 s; broker-0 (the leader) shuts down cleanly at 1 s and starts again 1 s later;
 * broker-1, which led meanwhile, shuts down cleanly at 5 s, and broker-0 leads again (leader epoch 2);
 * clicks writes c1 at 7 s. The model agreed before this test was written; it is kept as a check.
 */
import { describe, expect, it } from 'vitest';
import { appendProducerBatch, createPartitionLog, lastStableOffset } from '../../src/sim/log/partitionLog';
import { reloadAfterCleanShutdown, reloadProducerState } from '../../src/sim/log/producerSnapshot';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { batchJob, committedReader } from '../fixtures/batchJob';

const scenario = {
  version: 1,
  id: 'open-transaction-across-clean-restart',
  seed: 1,
  cluster: { brokers: 3, 'min.insync.replicas': 2 },
  topics: [{ name: 'orders', replicationFactor: 3 }],
  clients: [
    batchJob({ topic: 'orders', commitAt: 12000 }),
    {
      id: 'clicks',
      type: 'producer',
      script: [{ op: 'send', topic: 'orders', key: 'click', value: 'c-1', headers: { event_id: 'c1' }, at: 7000 }],
    },
    committedReader('orders'),
  ],
  faults: [
    { type: 'controlledShutdown', target: 'broker-0', at: 1000, durationMs: 1000 },
    { type: 'controlledShutdown', target: 'broker-1', at: 5000, durationMs: 1000 },
  ],
} as unknown as Scenario;

type FetchAnswer = { partitions: { error: string; highWatermark: number; lastStableOffset: number }[] };

describe('an open transaction across its leader’s clean restart', () => {
  it('the restarted leader holds the LSO at the transaction’s first offset until its commit marker; the reader sees both records once, after the commit', () => {
    const trace = runScenario(scenario);
    const facts: { t: number; fact: Fact }[] = [];
    for (let i = 0; ; i++) {
      const s = trace.steps.at(i);
      if (!s) break;
      for (const f of s.facts as Fact[]) facts.push({ t: s.t, fact: f });
    }
    const leaders = facts.filter((f) => f.fact.kind === 'leaderChange').map((f) => (f.fact as { leader: string }).leader);
    expect(leaders).toEqual(['broker-1', 'broker-0']);
    const stopped = facts.filter((f) => f.fact.kind === 'brokerStopped').map((f) => (f.fact as { reason: string }).reason);
    expect(stopped).toEqual(['granted', 'granted']);
    // broker-0's answers to the reader while it leads with the transaction open: the LSO stays at 0
    const answers: { sentAt: number; p: FetchAnswer['partitions'][number] }[] = [];
    for (let i = 0; i < trace.envelopes.length; i++) {
      const e = trace.envelopes.at(i);
      if (e?.rpc !== 'FetchResponse' || e.from !== 'broker-0' || e.to !== 'reader.consumer') continue;
      const p = (e.payload as FetchAnswer).partitions[0];
      if (p?.error === 'NONE') answers.push({ sentAt: e.sentAt, p });
    }
    const open = answers.filter((a) => a.sentAt < 12000);
    expect(open.length).toBeGreaterThan(5);
    expect(open.every((a) => a.p.lastStableOffset === 0)).toBe(true);
    // c1 (offset 1) is above the HW-bound LSO, written at 7 s, and still not readable
    expect(open.some((a) => a.p.highWatermark === 2)).toBe(true);
    expect(answers.filter((a) => a.sentAt > 12010).every((a) => a.p.lastStableOffset === 3)).toBe(true);
    const delivered = facts.filter((f) => f.fact.kind === 'delivered');
    expect(delivered.map((f) => (f.fact as { offset: number }).offset)).toEqual([0, 1]);
    expect(delivered.every((f) => f.t > 12000)).toBe(true);
    const verdict = summarize(trace).verdict.layers.map((l) => `${l.layer}:${l.status}`);
    expect(verdict).toEqual(['log:once', 'delivery:once', 'processing:once', 'loss:once']);
  });

  it('on the log: both reloads — after a clean shutdown and after a crash — keep the open transaction, however long idle', () => {
    const DAY = 86_400_000;
    const log = appendProducerBatch(
      createPartitionLog('orders', 0),
      {
        producerId: 7,
        producerEpoch: 0,
        baseSequence: 0,
        isTransactional: true,
        records: [{ key: 'k', value: 'v', headers: {}, timestamp: 1 }],
      },
      1,
    ).log;
    const plain = appendProducerBatch(
      log,
      {
        producerId: 8,
        producerEpoch: 0,
        baseSequence: 0,
        isTransactional: false,
        records: [{ key: 'k', value: 'w', headers: {}, timestamp: 2 }],
      },
      2,
    ).log;
    const hw = { ...plain, highWatermark: 2 };
    for (const r of [reloadAfterCleanShutdown(hw, 2 * DAY, DAY), reloadProducerState(hw, 2 * DAY, DAY)]) {
      expect(r.log.producers.get(7)?.currentTxnFirstOffset).toBe(0);
      // the idle plain producer is left out; the one with the open transaction is not (isProducerExpired)
      expect(r.log.producers.has(8)).toBe(false);
      expect(lastStableOffset(r.log)).toBe(0);
    }
  });
});
