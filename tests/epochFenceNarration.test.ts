/**
 * The coordinator's PrepareEpochFence is narrated with its cause: transaction.timeout.ms running out
 * (transaction-timeout) is not "a newer instance arrived" (zombie-fencing).
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../src/sim/narration';
import { PRESETS } from '../src/sim/presets';
import { runScenario, type Trace } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';

function run(id: string): Trace {
  const p = PRESETS.find((x) => x.id === id);
  if (!p) throw new Error(`no preset ${id}`);
  return runScenario(p.scenario);
}

function fenceStep(t: Trace): number {
  const s = t.steps.find((st) => (st.facts as Fact[]).some((f) => f.kind === 'txnState' && f.to === 'PrepareEpochFence'));
  if (!s) throw new Error('no PrepareEpochFence');
  return s.i;
}

describe('PrepareEpochFence narration', () => {
  it('a timed-out transaction: the coordinator fences it itself, no newer instance', () => {
    const t = run('transaction-timeout');
    const i = fenceStep(t);
    const en = narrate(t, i, 'en');
    expect(en).toContain('outlived transaction.timeout.ms');
    expect(en).not.toContain('a newer instance arrived');
    const ko = narrate(t, i, 'ko');
    expect(ko).toContain('코디네이터가 직접 epoch를 올립니다');
    expect(ko).not.toContain('새 인스턴스가 와서');
  });

  it('a second instance: the newer instance fences the old epoch', () => {
    const t = run('zombie-fencing');
    const en = narrate(t, fenceStep(t), 'en');
    expect(en).toContain('a newer instance arrived');
    expect(en).not.toContain('transaction.timeout.ms');
  });
});
