/**
 * A partition record lost to a broken connection is resent at the broker's next heartbeat, once: the
 * controller forgets it (`missed`) when it resends. The controller's context drops the key when the
 * last broker's list empties, and XState's interpreter merges a returned context into the old one, so a
 * key left out survives there: the record was resent at every heartbeat under XState, and the two
 * runners disagreed. Both runners now give one traceHash, and the record goes once.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { hashWith } from '../properties/runnerHash';

const base = findPreset('acks-1-leader-failover-loss')?.scenario as Scenario;
/** The preset, with the first PartitionChange to broker-1 lost to a reset connection. */
const scenario = {
  ...base,
  faults: [...(base.faults ?? []), { type: 'reset', rpc: 'PartitionChange', to: 'broker-1', nth: 1 }],
} as Scenario;

const run = (runner: 'xstate' | 'compiled') => hashWith(scenario, runner);

describe('a partition record lost to a broken connection', () => {
  it('is resent at the next heartbeat and then forgotten, under either runner (one traceHash, the run settles)', () => {
    const compiled = run('compiled');
    expect(run('xstate')).toBe(compiled);
    expect(compiled).toMatch(/ quiescent$/);
    const trace = runScenario(scenario);
    const toBroker1 = trace.envelopes.toArray().filter((e) => e.rpc === 'PartitionChange' && e.to === 'broker-1');
    const lost = toBroker1[0];
    // the reset connection lost it; a later PartitionChange carries the same record
    expect(lost?.fate).toBe('lost');
    const key = (e: (typeof toBroker1)[number] | undefined) =>
      JSON.stringify([e?.payload.topic, e?.payload.partition, e?.payload.partitionEpoch]);
    expect(toBroker1.slice(1).some((e) => key(e) === key(lost))).toBe(true);
  });
});
