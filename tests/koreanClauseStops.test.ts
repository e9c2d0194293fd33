/**
 * A Korean step sentence is several sentences joined: each clause that ends a sentence (…니다) has its
 * full stop before the next. Translated engine notes end without one, and ran into the next clause
 * ("epoch 0을 펜싱하고 취소합니다 트랜잭션 코디네이터가 …").
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../src/sim/narration';
import { PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';

describe('Korean narration: a full stop between sentences', () => {
  it('no step of any preset runs one sentence into the next', () => {
    const runOn: string[] = [];
    for (const p of PRESETS) {
      const t = runScenario(p.scenario);
      for (const s of t.steps) {
        const text = narrate(t, s.i, 'ko');
        if (/니다 [^(—]/.test(text)) runOn.push(`${p.id} #${s.i}: ${text}`);
      }
    }
    expect(runOn).toEqual([]);
  }, 120_000);

  it("transaction-timeout: the coordinator's timeout note, then its state change", () => {
    const p = PRESETS.find((x) => x.id === 'transaction-timeout');
    if (!p) throw new Error('no transaction-timeout');
    const t = runScenario(p.scenario);
    const texts = t.steps.map((s) => narrate(t, s.i, 'ko'));
    expect(texts.some((x) => x.includes('펜싱하고 취소합니다. 트랜잭션 코디네이터가'))).toBe(true);
  });
});
