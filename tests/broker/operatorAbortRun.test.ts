/**
 * `kafka-transactions.sh abort --start-offset N` through whole runs (broker/operatorAbort.ts): on
 * the hanging-transaction preset's scenario with an operator's abort added after the stall, the
 * ABORT marker releases the LSO and the read_committed reader receives evt-click-1.
 */
import { describe, expect, it } from 'vitest';
import { checkInvariants, formatViolations } from '../../src/sim/checks/invariants';
import { narrate } from '../../src/sim/narration';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { FaultSpec, Scenario } from '../../src/sim/scenario/schema';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';

type F<K extends Fact['kind']> = Extract<Fact, { kind: K }>;
const facts = <K extends Fact['kind']>(trace: ReturnType<typeof runScenario>, kind: K) =>
  trace.steps.flatMap((s) => (s.facts as Fact[]).filter((f): f is F<K> => f.kind === kind));

/** The hanging-transaction preset's scenario with `faults` added (the preset itself is not changed). */
function hanging(extra: readonly FaultSpec[]): Scenario {
  const preset = findPreset('hanging-transaction');
  if (!preset) throw new Error('no hanging-transaction preset');
  const { expectedVerdict: _, ...scenario } = preset.scenario as Scenario & { expectedVerdict?: unknown };
  return { ...scenario, faults: [...(scenario.faults ?? []), ...extra] };
}

describe('kafka-transactions.sh abort in a run', () => {
  it('after the stall, aborting the hanging transaction at offset 1 releases the LSO: the read_committed reader receives evt-click-1', () => {
    const trace = runScenario(hanging([{ type: 'abortTransaction', at: 10000, topic: 'orders', partition: 0, startOffset: 1 }]));
    expect(facts(trace, 'operatorAbort')).toEqual([
      {
        kind: 'operatorAbort',
        broker: 'broker-0',
        topic: 'orders',
        partition: 0,
        startOffset: 1,
        spec: { producerId: 1001, producerEpoch: 0, coordinatorEpoch: 0 },
        markerOffset: 3,
        printed: null,
        failure: null,
      },
    ]);
    const s = summarize(trace);
    const p = s.partitions.find((x) => x.topic === 'orders');
    expect(p?.records.map((r) => `${r.offset}:${r.control ?? r.txnOutcome ?? 'plain'}`)).toEqual([
      '0:ABORT',
      '1:aborted',
      '2:plain',
      '3:ABORT',
    ]);
    expect(p?.lastStableOffset).toBe(4);
    expect(s.consumers.find((c) => c.id === 'committed-reader')?.received.map((x) => x.headers.event_id)).toEqual(['evt-click-1']);
    const statuses = s.verdict.layers.map((l) => `${l.layer}:${l.subject}:${l.status}`);
    expect(s.verdict.layers.find((l) => l.layer === 'loss')?.sentence).toBe(
      'Lost: evt-1 (orders) only in an aborted transaction: an operator aborted it (kafka-transactions.sh abort).',
    );
    expect(statuses.filter((x) => x.endsWith(':stalled'))).toEqual([]);
    expect(statuses).toContain('delivery:committed-reader:once');
    expect(statuses).toContain('processing:committed-reader:once');
  });

  it('no transaction starts at the offset given: the tool prints its error and writes nothing', () => {
    const trace = runScenario(hanging([{ type: 'abortTransaction', at: 10000, topic: 'orders', partition: 0, startOffset: 2 }]));
    expect(facts(trace, 'operatorAbort')).toMatchObject([
      {
        spec: null,
        markerOffset: null,
        failure: 'no-open-transaction',
        printed: 'Could not find any open transactions starting at offset 2 on partition orders-0',
      },
    ]);
    const s = summarize(trace);
    expect(s.partitions.find((x) => x.topic === 'orders')?.lastStableOffset).toBe(1);
    expect(s.verdict.layers.some((l) => l.status === 'stalled')).toBe(true);
  });
});

/** commit-two-partitions with a 3 s pause before the commit: the transaction is open on both partitions meanwhile. */
function openWhileAborted(at: number): Scenario {
  const preset = findPreset('commit-two-partitions');
  if (!preset) throw new Error('no commit-two-partitions preset');
  const { expectedVerdict: _, ...scenario } = preset.scenario as Scenario & { expectedVerdict?: unknown };
  type Op = Extract<Scenario['clients'][number], { type: 'producer' }>['script'][number];
  const clients = scenario.clients.map((c) =>
    c.type === 'producer' && c.id === 'payment-service'
      ? { ...c, script: c.script.flatMap((op): Op[] => (op.op === 'commitTransaction' ? [{ op: 'sleep', ms: 3000 }, op] : [op])) }
      : c,
  );
  return { ...scenario, clients, faults: [{ type: 'abortTransaction', at, topic: 'payments', partition: 0, startOffset: 0 }] };
}

describe('aborting a transaction its coordinator still has open', () => {
  it('the tool aborts payments-0; the coordinator later commits: payments-1 COMMIT, payments-0 aborted — atomicity broken', () => {
    const trace = runScenario(openWhileAborted(2000));
    const s = summarize(trace);
    expect(facts(trace, 'operatorAbort')).toMatchObject([
      { broker: 'broker-0', spec: { producerId: 1000, producerEpoch: 0, coordinatorEpoch: 0 }, markerOffset: 1, failure: null },
    ]);
    const layout = (partition: number) =>
      s.partitions
        .find((x) => x.topic === 'payments' && x.partition === partition)
        ?.records.map((r) => `${r.offset}:${r.control ?? r.txnOutcome ?? 'plain'}`);
    // the coordinator's COMMIT lands on payments-0 too, after the operator's ABORT: with no open
    // transaction there it changes nothing (ProducerAppendInfo.appendEndTxnMarker: no CompletedTxn)
    expect(layout(0)).toEqual(['0:aborted', '1:ABORT', '2:COMMIT']);
    expect(layout(1)).toEqual(['0:committed', '1:COMMIT']);
    expect(s.clients.find((c) => c.id === 'payment-service')?.errors ?? []).toEqual([]);
    const log = s.verdict.layers.find((l) => l.layer === 'log');
    expect(log).toMatchObject({ status: 'lost', eventIds: ['evt-debit-1'] });
    expect(log?.sentence).toContain('while its coordinator still had it open, and the coordinator then committed it');
    expect(log?.sentence).toContain('atomicity broken');
    expect(s.consumers.find((c) => c.id === 'ledger')?.received.map((x) => x.headers.event_id)).toEqual(['evt-credit-1']);
  });
});

describe("the invariants accept an operator's marker (no coordinator decision behind it)", () => {
  const sound = (scenario: Scenario) => {
    const trace = runScenario(scenario);
    const violations = checkInvariants(trace, { everyStep: true });
    expect(violations, formatViolations(violations)).toEqual([]);
    return trace;
  };

  it('the hanging transaction aborted, and a transaction the coordinator then committed', () => {
    sound(hanging([{ type: 'abortTransaction', at: 10000, topic: 'orders', partition: 0, startOffset: 1 }]));
    sound(openWhileAborted(2000));
  });

  it('on a replicated partition: the leader of the moment writes it, the followers copy it, the LSO moves once the HW passes it', () => {
    const base = hanging([{ type: 'abortTransaction', at: 10000, topic: 'orders', partition: 0, startOffset: 1 }]);
    const trace = sound({
      ...base,
      cluster: { ...base.cluster, brokers: 3 },
      topics: [{ name: 'orders', partitions: 1, replicationFactor: 3 }],
    });
    const abort = facts(trace, 'operatorAbort');
    expect(abort).toMatchObject([{ spec: { producerId: 1001 }, failure: null }]);
    const s = summarize(trace);
    expect(s.consumers.find((c) => c.id === 'committed-reader')?.received.map((x) => x.headers.event_id)).toEqual(['evt-click-1']);
  });

  it("the partition's first leader is down: the tool reaches the leader of the moment", () => {
    const base = hanging([
      { type: 'crash', target: 'broker-0', at: 8000 },
      { type: 'abortTransaction', at: 20000, topic: 'orders', partition: 0, startOffset: 1 },
    ]);
    const trace = sound({
      ...base,
      cluster: { ...base.cluster, brokers: 3 },
      topics: [{ name: 'orders', partitions: 1, replicationFactor: 3, replicas: [[0, 1, 2]] }],
    });
    const [abort] = facts(trace, 'operatorAbort');
    expect(abort?.broker).not.toBe('broker-0');
    expect(abort).toMatchObject({ spec: { producerId: 1001 }, failure: null });
  });
});

describe('kafka-transactions.sh abort while the partition’s leader restarts', () => {
  /** orders-0 led by broker-0, which crashes at 8000 and restarts at 8500; it registers only once its old incarnation is fenced (about 16.5 s). */
  const restarting = (at: number): Scenario => {
    const base = hanging([
      { type: 'crash', target: 'broker-0', at: 8000, durationMs: 500 },
      { type: 'abortTransaction', at, topic: 'orders', partition: 0, startOffset: 1 },
    ]);
    return {
      ...base,
      cluster: { ...base.cluster, brokers: 3 },
      topics: [{ name: 'orders', partitions: 1, replicationFactor: 3, replicas: [[0, 1, 2]] }],
    };
  };

  it('broker-0 still registering (not listening) at the tool’s start: the admin client keeps trying, and once broker-1 leads (the old incarnation fenced) the tool aborts there', () => {
    // Changed (2026-12-07): the tool failed at once with the timeout's text; Kafka's call waits for
    // the node until default.api.timeout.ms (60 s), and a new leader lookup follows the refusal
    const trace = runScenario(restarting(12000));
    const [abort, ...more] = facts(trace, 'operatorAbort');
    expect(more).toEqual([]);
    expect(abort).toMatchObject({ broker: 'broker-1', spec: { producerId: 1001 }, failure: null });
    const at = trace.steps.find((st) => (st.facts as Fact[]).some((f) => f.kind === 'operatorAbort'))?.t ?? 0;
    // broker-1 leads once the controller fences broker-0's old incarnation (about 15 s); the tool looks every 100 ms
    const led = trace.steps.find((st) => (st.facts as Fact[]).some((f) => f.kind === 'leaderChange' && f.leader === 'broker-1'))?.t ?? 0;
    expect(led).toBeGreaterThan(12000);
    expect(at).toBeGreaterThanOrEqual(led);
    expect(at).toBeLessThanOrEqual(led + 101);
  });

  it('broker-0 down and still named for longer than default.api.timeout.ms: the tool prints the admin client’s timeout 60 s after it started and writes nothing', () => {
    // a session timeout of 120 s keeps broker-0, down from 8000, the leader in every broker's metadata
    const base = restarting(12000);
    const trace = runScenario({
      ...base,
      cluster: { ...base.cluster, 'broker.session.timeout.ms': 120000 },
      faults: (base.faults ?? []).map((f) => (f.type === 'crash' ? { ...f, durationMs: 100000 } : f)),
      run: { ...base.run, maxTimeMs: 80000 },
    } as Scenario);
    const abort = facts(trace, 'operatorAbort');
    expect(abort).toEqual([
      {
        kind: 'operatorAbort',
        broker: 'broker-1',
        topic: 'orders',
        partition: 0,
        startOffset: 1,
        spec: null,
        markerOffset: null,
        printed:
          'Failed to validate producer state for partition orders-0: Timed out waiting for a node assignment. Call: describeProducers(api=DESCRIBE_PRODUCERS). Enable debug logging for additional detail.',
        failure: 'leader-unreachable',
        unreachable: 'broker-0',
      },
    ]);
    // the step that told it is broker-1's: the registering broker-0 received nothing
    const told = trace.steps.filter((s) => (s.facts as Fact[]).some((f) => f.kind === 'operatorAbort'));
    expect(told.map((s) => s.actor)).toEqual(['broker-1']);
    // default.api.timeout.ms after the tool started at 12000 (the old code said it at once)
    expect(told.map((s) => s.t)).toEqual([72000]);
    const s = summarize(trace);
    expect(s.partitions.find((x) => x.topic === 'orders')?.records.some((r) => r.control === 'ABORT' && r.offset > 2)).toBe(false);
    expect(s.consumers.find((c) => c.id === 'committed-reader')?.received ?? []).toEqual([]);
    expect(narrate(trace, told[0]?.i ?? -1, 'en')).toContain('the leader of orders-0, broker-0, accepts no connection');
    expect(narrate(trace, told[0]?.i ?? -1, 'ko')).toContain('연결을 받지 않습니다');
  });

  it('once broker-0’s old incarnation is fenced and broker-1 leads, the tool reaches broker-1 and aborts', () => {
    const trace = runScenario(restarting(20000));
    expect(facts(trace, 'operatorAbort')).toMatchObject([{ broker: 'broker-1', spec: { producerId: 1001 }, failure: null }]);
  });
});
