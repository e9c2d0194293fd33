/**
 * A broker that led an epoch and appended nothing in it, then follows again: it must drop that
 * epoch from its cache (UnifiedLog.truncateTo truncates the epoch cache at the log end even when
 * nothing is cut), or it sends it as lastFetchedEpoch for ever and the leader answers DivergingEpoch
 * for ever. Found by the fork property test: acks-1-leader-failover-loss with broker-1 (leader of
 * epoch 1, which wrote nothing) crashed and restarted late in the run spun to the step limit.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { copiesAtEnd, replicaCopy } from './replicaView';

const preset = PRESETS.find((p) => p.id === 'acks-1-leader-failover-loss')?.scenario as Scenario;
const scenario: Scenario = {
  ...preset,
  run: { ...preset.run, maxSteps: 20000 },
  faults: [...(preset.faults ?? []), { type: 'crash', target: 'broker-1', at: 43023, durationMs: 400 }],
};

describe('a former leader with an empty epoch follows again', () => {
  const trace = runScenario(scenario);

  it('the run ends (no fetch loop): broker-1 truncates its epoch cache and fetches from broker-0', () => {
    expect(trace.stopReason).toBe('quiescent');
    // the loop ran to the 20,000-step limit; the run itself (with billing reading) takes about 2,100
    expect(trace.steps.length).toBeLessThan(5000);
  });

  it('every replica holds the same log at the end, and broker-0 leads with all three in its ISR', () => {
    const [b0, b1, b2] = copiesAtEnd(trace, ['broker-0', 'broker-1', 'broker-2'], 'orders-0');
    expect(b1?.[1]).toEqual(b0?.[1]);
    expect(b2?.[1]).toEqual(b0?.[1]);
    const leader = replicaCopy(stateAt(trace, trace.steps.length), 'broker-0', 'orders-0');
    expect([...(leader.leaderIsr ?? [])].sort()).toEqual(['broker-0', 'broker-1', 'broker-2']);
  });
});
