/**
 * A counterexample Break it opens, narrated step by step in English and Korean: no parentheses
 * closed or opened twice in a row. The note on each fault ended in "(<subject>)" and a restart's
 * label wraps its crash's in parentheses, so narration's own parentheses around them read
 * "(… (orders)))". A note from a link made before keeps its Korean.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration';
import { breakItNoteKo } from '../../src/sim/narration/breakItNotes';
import { endedFault } from '../../src/sim/narration/faults';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { Property } from '../../src/sim/search/property';
import { counterexampleScenario } from '../../src/sim/search/report';
import { prepareBase } from '../../src/sim/search/runner';
import { searchAll } from '../../src/sim/search/search';

const DOUBLED = /\(\s*\(|\)\s*\)/;

describe("Break it's counterexample in narration", () => {
  it('says each fault, its crash and its restart, without doubled parentheses, in both languages', () => {
    const property: Property = { id: 'no-duplicates', at: 'orders-db' };
    const base = prepareBase(findPreset('db-sink-duplicate')?.scenario);
    const ce = searchAll(base, { property, maxFaults: 1, space: { kinds: ['crash'], timing: 'points' } }).counterexample;
    if (!ce) throw new Error('no counterexample');
    const trace = runScenario(counterexampleScenario(base, ce, property));
    const faultSteps = [...trace.steps].filter((s) => s.faults.length > 0 || s.kind === 'fault').map((s) => s.i);
    // the crash and the restart it ends in, at least
    expect(faultSteps.length).toBeGreaterThanOrEqual(2);
    const said: string[] = [];
    for (const language of ['en', 'ko'] as const)
      for (const i of faultSteps) {
        const text = narrate(trace, i, language);
        said.push(text);
        expect(text, `${language} step ${i}`).not.toMatch(DOUBLED);
      }
    // the note is there, in each language, once
    expect(said.filter((t) => t.includes('breaks at the sink layer of orders-db')).length).toBeGreaterThanOrEqual(2);
    expect(said.some((t) => t.includes('orders-db의 Kafka 밖 계층에서 깨짐'))).toBe(true);
    expect(said.some((t) => /restarts as a new incarnation, ending the fault “crash /.test(t))).toBe(true);
  });

  it("a restart's label gives back the fault it ends, in the kernel's two forms", () => {
    expect(endedFault('restart billing (crash billing at 100 ms, restart 1000 ms later)')).toBe(
      'crash billing at 100 ms, restart 1000 ms later',
    );
    expect(endedFault('restart billing 1000 ms after: billing crashes (again)')).toBe('billing crashes (again)');
    expect(endedFault('something else')).toBe('something else');
  });

  it('a note from a link made before ("… layer (<subject>)") still reads in Korean', () => {
    const old =
      'crash billing at 100 ms, restart 1000 ms later — Break it: no business duplicate in any topic or system outside Kafka breaks at the sink layer (orders-db)';
    expect(breakItNoteKo(old, () => '중단')).toContain('orders-db의 Kafka 밖 계층에서 깨짐');
  });
});
