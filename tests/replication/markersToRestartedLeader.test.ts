/**
 * A transaction's commit markers meet a leader that has just restarted (a crash, back within its
 * session). The restarted broker does not accept connections until the controller unfences it
 * (BrokerServer.startup), and the controller unfences it only after its old incarnation's session
 * expired and that incarnation was fenced (ClusterControlManager.registerBroker,
 * DUPLICATE_BROKER_REGISTRATION meanwhile) — which moves the leadership away. So the coordinator's
 * WriteTxnMarkers to it are refused (TransactionMarkerRequestCompletionHandler: a disconnect sends
 * the markers again, to the leader the metadata then names), the marker is written by the new
 * leader, and the restarted broker copies it when it follows. The transaction commits once; a
 * read_committed reader sees e1 when the new leader's LSO passes it.
 *
 * The run: three brokers, orders with three replicas led by broker-0; batch-job writes e1 in a
 * transaction and commits at 600 ms; broker-0 crashes at 500 ms and restarts at 600 ms.
 */
import { describe, expect, it } from 'vitest';
import { runScenario, stateAt } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { batchJob, committedReader } from '../fixtures/batchJob';
import { replicaCopy } from './replicaView';

const scenario = {
  version: 1,
  id: 'markers-to-restarted-leader',
  seed: 1,
  cluster: { brokers: 3, 'min.insync.replicas': 2 },
  topics: [{ name: 'orders', replicationFactor: 3 }],
  clients: [batchJob({ topic: 'orders', commitAt: 600 }), committedReader('orders')],
  faults: [{ type: 'crash', target: 'broker-0', at: 500, durationMs: 100 }],
} as unknown as Scenario;

describe('commit markers to a leader that restarted and is not yet unfenced', () => {
  it('are refused until the leadership moves; the new leader writes the marker, the restarted broker copies it, e1 is read once', () => {
    const trace = runScenario(scenario);
    const steps = [...Array(trace.steps.length).keys()].map((i) => trace.steps.at(i) as NonNullable<ReturnType<typeof trace.steps.at>>);
    const facts = steps.flatMap((s) => (s.facts as Fact[]).map((f) => ({ t: s.t, actor: s.actor, f })));
    const moved = facts.find((x) => x.f.kind === 'leaderChange') as { t: number; f: { leader: string; leaderEpoch: number } };
    expect(moved.f).toMatchObject({ leader: 'broker-1', leaderEpoch: 1 });
    // every WriteTxnMarkers to broker-0 before the fencing was refused, none read
    const toB0 = steps.filter((s) => s.actor === 'broker-0' && s.label === 'WriteTxnMarkers');
    expect(toB0.length).toBeGreaterThan(10);
    expect(toB0.every((s) => s.kind === 'lost' && s.faults[0]?.includes('not accepting connections'))).toBe(true);
    // the marker is written once, by broker-1, after it leads
    const markers = facts.filter((x) => x.f.kind === 'append' && (x.f as { control: string | null }).control !== null);
    expect(markers.map((x) => [x.actor, (x.f as { control: string }).control])).toEqual([['broker-1', 'COMMIT']]);
    expect((markers[0] as { t: number }).t).toBeGreaterThan(moved.t);
    expect(facts.filter((x) => x.f.kind === 'txnState').map((x) => (x.f as { to: string }).to)).toEqual([
      'Empty',
      'Ongoing',
      'PrepareCommit',
      'CompleteCommit',
    ]);
    // broker-0, unfenced later, follows broker-1 and holds e1 and the marker
    const end = stateAt(trace, steps.length - 1);
    expect(replicaCopy(end, 'broker-0', 'orders-0').records.map((r) => r[0])).toEqual([0, 1]);
    expect(replicaCopy(end, 'broker-1', 'orders-0').records.map((r) => r[0])).toEqual([0, 1]);
    const delivered = facts.filter((x) => x.f.kind === 'delivered');
    expect(delivered).toHaveLength(1);
    expect((delivered[0] as { t: number }).t).toBeGreaterThan((markers[0] as { t: number }).t);
    const verdict = summarize(trace).verdict.layers.map((l) => `${l.layer}:${l.status}`);
    expect(verdict).toEqual(['log:once', 'delivery:once', 'processing:once', 'loss:once']);
  });
});
