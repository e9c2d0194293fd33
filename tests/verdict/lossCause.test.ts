/**
 * An acknowledged record cut from the log by a leader change: the loss's steps lead with what cut
 * it — the election whose leader lacked it (the unclean one, when there was one), then the
 * truncation of the old leader's log — and keep its append after them; the verdict panel's
 * "Caused at" links follow that order.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { findingSteps } from '../../src/ui/verdict/findingSteps';

function lossSteps(id: string) {
  const preset = PRESETS.find((p) => p.id === id);
  if (!preset) throw new Error(id);
  const trace = runScenario(preset.scenario);
  const v = summarize(trace).verdict;
  const log = v.layers.find((l) => l.layer === 'log' && l.subject === 'orders');
  const loss = v.layers.find((l) => l.layer === 'loss');
  if (!log || !('losses' in log) || !loss) throw new Error('no finding');
  const facts = (s: number) => trace.steps.at(s)?.facts as Fact[];
  return { trace, log, loss, facts };
}

describe('what caused a truncation loss', () => {
  it('unclean-election-loses-committed: the unclean election, then the truncation, then the append', () => {
    const { trace, log, loss, facts } = lossSteps('unclean-election-loses-committed');
    for (const l of log.losses) {
      const [election, truncation, append] = l.steps as [number, number, number];
      expect(l.cause).toBe('unclean-election');
      expect(facts(election)).toContainEqual(expect.objectContaining({ kind: 'leaderChange', election: 'unclean' }));
      expect(facts(truncation)).toContainEqual(expect.objectContaining({ kind: 'truncated', broker: 'broker-0' }));
      expect(facts(append)).toContainEqual(expect.objectContaining({ kind: 'append', control: null }));
    }
    // "Caused at" leads with the election, not the append
    const shown = findingSteps(loss, trace.steps, trace.steps.length);
    expect(facts(shown[0] as number)).toContainEqual(expect.objectContaining({ kind: 'leaderChange', election: 'unclean' }));
    expect(findingSteps(log, trace.steps, trace.steps.length)[0]).toBe(shown[0]);
  });

  it('acks-1-leader-failover-loss: the clean election of broker-1, then broker-0’s truncation, then the append', () => {
    const { trace, log, loss, facts } = lossSteps('acks-1-leader-failover-loss');
    const l = log.losses[0];
    expect(l?.cause).toBe('truncated');
    const [election, truncation, append] = l?.steps as [number, number, number];
    expect(facts(election)).toContainEqual(expect.objectContaining({ kind: 'leaderChange', leader: 'broker-1', election: 'clean' }));
    expect(facts(truncation)).toContainEqual(expect.objectContaining({ kind: 'truncated', broker: 'broker-0', fromOffset: 1 }));
    expect(facts(append)).toContainEqual(expect.objectContaining({ kind: 'append', eventIds: ['e2'] }));
    expect(findingSteps(loss, trace.steps, trace.steps.length)).toEqual([election, truncation, append]);
  });
});
