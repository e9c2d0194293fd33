/**
 * A pause whose fault label already calls it a GC pause is not compared with one again:
 * "is paused (instance A freezes for 3 s (a long GC pause)), like a long GC pause" said it twice.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../src/sim/narration';
import { PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';

describe('a GC pause, said once', () => {
  it('zombie-fencing: instance-a is paused, in English and Korean', () => {
    const p = PRESETS.find((x) => x.id === 'zombie-fencing');
    if (!p) throw new Error('no preset');
    const t = runScenario(p.scenario);
    const en = t.steps.map((s) => narrate(t, s.i, 'en')).find((x) => x.includes('instance-a is paused'));
    expect(en).toBe(
      'Fault: instance-a is paused (instance A freezes for 3 s (a long GC pause)) — it handles nothing, not even heartbeats, until it resumes.',
    );
    const ko = t.steps.map((s) => narrate(t, s.i, 'ko')).find((x) => x.includes('instance-a가 일시 정지됩니다'));
    expect(ko).not.toContain('긴 GC 정지처럼');
    expect(ko).toContain('재개될 때까지 하트비트조차 처리하지 않습니다.');
  });
});
