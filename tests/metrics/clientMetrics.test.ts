/**
 * The metrics view (sim/metrics/clientMetrics.ts): Kafka's client metrics at a step, counted where
 * Kafka's sensors record — on presets whose story is known. record-retry-total counts records, not
 * batches; a restarted consumer's records-consumed-total starts again from 0, and the run's total (the
 * trace's accumulators, folded once) says how many it received over the run.
 */
import { describe, expect, it, vi } from 'vitest';
import { clientMetricsAt, metricsClientOf } from '../../src/sim/metrics/clientMetrics';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt, type Trace } from '../../src/sim/run';
import { ViewAccumulators } from '../../src/sim/trace/viewAccumulators';

function traceOf(id: string): Trace {
  const p = findPreset(id);
  if (!p) throw new Error(`no preset ${id}`);
  return runScenario(p.scenario);
}

/** The client's metrics at `step`, by name. */
function metricsAt(trace: Trace, client: string, step: number): Record<string, number> {
  const m = clientMetricsAt(trace, stateAt(trace, step), client);
  return Object.fromEntries((m?.metrics ?? []).map((x) => [x.name, x.value]));
}

/** The first step after which `metric` of `client` is at least `value` (binary search: counters only grow). */
function firstStepReaching(trace: Trace, client: string, metric: string, value: number): number {
  let lo = 0;
  let hi = trace.steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((metricsAt(trace, client, mid)[metric] ?? 0) >= value) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

describe('producer-metrics', () => {
  it('lost-ack-idempotent: one record retried after the lost ack, none failed; the retry is sent again', () => {
    const trace = traceOf('lost-ack-idempotent');
    const end = metricsAt(trace, 'orders-service', trace.steps.length);
    expect(end).toMatchObject({ 'record-send-total': 2, 'record-retry-total': 1, 'record-error-total': 0 });
    // the step that re-enqueued the batch: the producer learning its connection is gone
    const retried = firstStepReaching(trace, 'orders-service', 'record-retry-total', 1);
    const step = trace.steps.at(retried - 1);
    expect(step?.actor).toBe('orders-service.producer');
    expect(step?.kind).toBe('disconnected');
    // a middle step, just before it: the first send counted, nothing retried yet
    expect(metricsAt(trace, 'orders-service', retried - 1)).toMatchObject({
      'record-send-total': 1,
      'record-retry-total': 0,
      'record-error-total': 0,
    });
    // re-enqueued, not yet sent again
    expect(metricsAt(trace, 'orders-service', retried)['record-send-total']).toBe(1);
    expect(firstStepReaching(trace, 'orders-service', 'record-send-total', 2)).toBeGreaterThan(retried);
  });

  it('lost-ack-no-idempotence: the same counts on the producer — the duplicate shows only on the consumer', () => {
    const trace = traceOf('lost-ack-no-idempotence');
    const end = metricsAt(trace, 'orders-service', trace.steps.length);
    expect(end).toMatchObject({ 'record-send-total': 2, 'record-retry-total': 1, 'record-error-total': 0 });
    // the retry was appended again: billing's poll returned the order twice
    expect(metricsAt(trace, 'billing', trace.steps.length)['records-consumed-total']).toBe(2);
  });

  it('sequence-gap: a record failed (record-error-total) besides the one retried', () => {
    const trace = traceOf('sequence-gap');
    expect(metricsAt(trace, 'orders-service', trace.steps.length)).toMatchObject({
      'record-retry-total': 1,
      'record-error-total': 1,
    });
  });

  it('idempotence-survives-failover: Produce requests onto refused connections are not drains, so not sends', () => {
    const trace = traceOf('idempotence-survives-failover');
    let produces = 0;
    for (let k = 0; k < trace.steps.length; k++) {
      const st = trace.steps.at(k);
      if (st?.actor === 'orders-service.producer') produces += st.sent.filter((id) => trace.envelopes.at(id)?.rpc === 'Produce').length;
    }
    const end = metricsAt(trace, 'orders-service', trace.steps.length);
    // the model sent a Produce on every reconnect attempt to the crashed leader; Kafka drains for a ready node only
    expect(produces).toBeGreaterThan(end['record-send-total'] as number);
    expect(end).toMatchObject({ 'record-send-total': 3, 'record-retry-total': 1, 'record-error-total': 0 });
  });

  it('at the first step nothing is counted yet', () => {
    const trace = traceOf('lost-ack-idempotent');
    expect(metricsAt(trace, 'orders-service', 0)).toMatchObject({
      'record-send-total': 0,
      'record-retry-total': 0,
      'record-error-total': 0,
    });
  });
});

describe('consumer-fetch-manager-metrics and consumer-coordinator-metrics', () => {
  it('at-least-once-consumer-crash: the restarted consumer counts from 0; over the run the re-read records count twice', () => {
    const trace = traceOf('at-least-once-consumer-crash');
    const m = clientMetricsAt(trace, stateAt(trace, trace.steps.length), 'billing');
    const consumed = m?.metrics.find((x) => x.name === 'records-consumed-total');
    expect(consumed?.group).toBe('consumer-fetch-manager-metrics');
    expect(consumed?.value).toBe(3);
    expect(consumed?.overRun).toBe(6);
    // before the crash: the first instance's three, the run's three
    const three = firstStepReaching(trace, 'billing', 'records-consumed-total', 3);
    const before = clientMetricsAt(trace, stateAt(trace, three), 'billing');
    const early = before?.metrics.find((x) => x.name === 'records-consumed-total');
    expect(early?.value).toBe(3);
    expect(early?.overRun).toBeUndefined();
  });

  it('eos-auto-commit-rebalance: settler-b went through two rebalances, settler-a one', () => {
    const trace = traceOf('eos-auto-commit-rebalance');
    const end = trace.steps.length;
    expect(metricsAt(trace, 'settler-b', end)).toMatchObject({
      'join-total': 2,
      'sync-total': 2,
      'rebalance-total': 2,
      // its first JoinGroup, answered MEMBER_ID_REQUIRED (its second rebalance rejoins with its member id)
      'failed-rebalance-total': 1,
    });
    expect(metricsAt(trace, 'settler-a', end)).toMatchObject({ 'join-total': 1, 'rebalance-total': 1 });
    // a middle step: after settler-b's first rebalance, before its second
    const first = firstStepReaching(trace, 'settler-b', 'rebalance-total', 1);
    const second = firstStepReaching(trace, 'settler-b', 'rebalance-total', 2);
    expect(second).toBeGreaterThan(first);
    const middle = metricsAt(trace, 'settler-b', second - 1);
    expect(middle['rebalance-total']).toBe(1);
    // the gauge: a partition after the first rebalance; none while the second is under way (the eager
    // protocol's onJoinPrepare revoked them before its JoinGroup)
    expect(metricsAt(trace, 'settler-b', first)['assigned-partitions']).toBeGreaterThan(0);
    expect(middle['assigned-partitions']).toBe(0);
  });

  it('streams-task-migration: a JoinGroup answered MEMBER_ID_REQUIRED, or refused UNKNOWN_MEMBER_ID, is a failed rebalance', () => {
    const trace = traceOf('streams-task-migration');
    const errorOf = (i: number) =>
      (trace.envelopes.at(trace.steps.at(i)?.envelope ?? -1)?.payload as { error?: string } | undefined)?.error;
    // the first: a new member's first JoinGroup (AbstractCoordinator's failedRebalanceSensor records every failed join future)
    const first = firstStepReaching(trace, 'counter-a', 'failed-rebalance-total', 1);
    expect(trace.steps.at(first - 1)?.label).toBe('JoinGroupResponse');
    expect(errorOf(first - 1)).toBe('MEMBER_ID_REQUIRED');
    const failed = firstStepReaching(trace, 'counter-a', 'failed-rebalance-total', 2);
    const step = trace.steps.at(failed - 1);
    expect(step?.label).toBe('JoinGroupResponse');
    expect(step?.facts).toContainEqual(expect.objectContaining({ kind: 'clientError', error: 'UNKNOWN_MEMBER_ID', during: 'JoinGroup' }));
    // …after which it joins as a new member again: MEMBER_ID_REQUIRED once more
    expect(metricsAt(trace, 'counter-a', trace.steps.length)['failed-rebalance-total']).toBe(3);
    expect(metricsAt(trace, 'counter-b', trace.steps.length)['failed-rebalance-total']).toBe(1);
  });

  it('a crashed client shows no metrics until it restarts; then they start from 0', () => {
    const trace = traceOf('at-least-once-consumer-crash');
    // the first step after which billing's process is down (a crash at a point of its loop)
    let crash = 0;
    while (crash < trace.steps.length && !stateAt(trace, crash).processes.get('billing')?.down) crash++;
    expect(crash).toBeLessThan(trace.steps.length);
    expect(clientMetricsAt(trace, stateAt(trace, crash), 'billing')).toEqual({ client: 'billing', down: true, metrics: [] });
    const restart = trace.steps.findIndex((st, i) => i >= crash && st.actor === 'billing.consumer' && st.label === 'restart');
    expect(restart).toBeGreaterThanOrEqual(crash);
    expect(metricsAt(trace, 'billing', restart + 1)).toMatchObject({ 'records-consumed-total': 0, 'join-total': 0, 'commit-total': 0 });
  });

  it('a transactional consumer-producer commits no offsets by OffsetCommit: commit-total stays 0', () => {
    const trace = traceOf('rebalance-zombie-fenced');
    const end = trace.steps.length;
    expect(metricsAt(trace, 'worker-a', end)['commit-total']).toBe(0);
    expect(metricsAt(trace, 'auditor', end)['commit-total']).toBeGreaterThan(0);
  });

  it('each metric carries the group Kafka registers it in', () => {
    const trace = traceOf('eos-auto-commit-rebalance');
    const m = clientMetricsAt(trace, stateAt(trace, trace.steps.length), 'settler-a');
    const groups = Object.fromEntries((m?.metrics ?? []).map((x) => [x.name, x.group]));
    expect(groups).toEqual({
      'record-send-total': 'producer-metrics',
      'record-retry-total': 'producer-metrics',
      'record-error-total': 'producer-metrics',
      'records-consumed-total': 'consumer-fetch-manager-metrics',
      // per assigned partition (tags topic, partition)
      'records-lag': 'consumer-fetch-manager-metrics',
      'records-lead': 'consumer-fetch-manager-metrics',
      'assigned-partitions': 'consumer-coordinator-metrics',
      'join-total': 'consumer-coordinator-metrics',
      'sync-total': 'consumer-coordinator-metrics',
      'rebalance-total': 'consumer-coordinator-metrics',
      'failed-rebalance-total': 'consumer-coordinator-metrics',
      'commit-total': 'consumer-coordinator-metrics',
    });
    expect(metricsClientOf(trace, 'settler-a.consumer')).toBe('settler-a');
    expect(metricsClientOf(trace, 'broker-0')).toBeNull();
  });
});

describe('cost of a view', () => {
  it('the run is folded once per trace: views at the last, first and middle steps refold nothing', () => {
    const trace = traceOf('auto-commit-pitfall');
    const fold = vi.spyOn(ViewAccumulators.prototype as unknown as { fold: () => void }, 'fold');
    try {
      const last = stateAt(trace, trace.steps.length);
      clientMetricsAt(trace, last, 'billing');
      const folded = fold.mock.calls.length;
      expect(folded).toBeGreaterThan(0);
      const first = stateAt(trace, 0);
      const middle = stateAt(trace, trace.steps.length >> 1);
      for (let i = 0; i < 20; i++) {
        clientMetricsAt(trace, last, 'billing');
        clientMetricsAt(trace, first, 'billing');
        clientMetricsAt(trace, middle, 'billing');
      }
      expect(fold.mock.calls.length).toBe(folded);
      // and the answers are the prefix counts at each step
      const over = (v: typeof last) => clientMetricsAt(trace, v, 'billing')?.metrics.find((x) => x.name === 'records-consumed-total');
      expect(over(first)?.value).toBe(0);
      expect(over(last)?.overRun).toBeGreaterThan(over(last)?.value ?? 0);
    } finally {
      fold.mockRestore();
    }
  });
});
