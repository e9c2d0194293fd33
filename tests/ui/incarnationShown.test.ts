/**
 * A process card names the life the process is in: after a crash and before its restart, the life
 * that ended, not the next one (it read "down · incarnation 2" right after the first crash).
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import { incarnationShown } from '../../src/ui/actors/incarnation';

describe('the incarnation on a process card', () => {
  it('at-least-once-consumer-crash: none while billing is down after its first crash, 2 once it has restarted', () => {
    const trace = runScenario(findPreset('at-least-once-consumer-crash')!.scenario);
    const shown: { down: boolean; life: number }[] = [];
    for (let step = 0; step <= trace.steps.length; step++) {
      const p = stateAt(trace, step).processes.get('billing');
      if (!p) continue;
      const last = shown.at(-1);
      const now = { down: p.down, life: incarnationShown(p) };
      if (!last || last.down !== now.down || last.life !== now.life) shown.push(now);
    }
    // running (1), down (still 1: the life that ended), running again (2)
    expect(shown).toEqual([
      { down: false, life: 1 },
      { down: true, life: 1 },
      { down: false, life: 2 },
    ]);
  });
});
