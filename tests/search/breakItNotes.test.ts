/**
 * A counterexample Break it opens carries a note on each fault (search/report.ts); on a Korean page
 * the fault list says it in Korean (narration/breakItNotes.ts), and every property's English reads
 * back into the property it describes.
 */
import { describe, expect, it } from 'vitest';
import { allowList, englishWords, scenarioWords } from '../../e2e/korean-words';
import { faultSpecLabel } from '../../src/sim/narration';
import { parseProperty } from '../../src/sim/narration/breakItNotes';
import { findPreset } from '../../src/sim/presets';
import { describeProperty, PROPERTY_IDS, type Property } from '../../src/sim/search/property';
import { counterexampleScenario } from '../../src/sim/search/report';
import { prepareBase } from '../../src/sim/search/runner';
import { searchAll } from '../../src/sim/search/search';

describe("Break it's notes in Korean", () => {
  it('every property, with and without its subject, reads back from its English', () => {
    for (const id of PROPERTY_IDS)
      for (const p of [{ id }, { id, at: 'order-results' }, { id, at: 'billing', stallMs: 1500 }] as Property[]) {
        const text = describeProperty(p);
        const back = parseProperty(text);
        expect(back && describeProperty(back), text).toBe(text);
      }
    expect(parseProperty('something else entirely')).toBeNull();
  });

  it("a counterexample's faults are labelled in Korean, with the fault, the property and the layer", () => {
    const property: Property = { id: 'no-duplicates', at: 'orders-db' };
    const base = prepareBase(findPreset('db-sink-duplicate')?.scenario);
    const result = searchAll(base, { property, maxFaults: 1, space: { kinds: ['crash'], timing: 'points' } });
    const ce = result.counterexample;
    if (!ce) throw new Error('no counterexample');
    const scenario = counterexampleScenario(base, ce, property);
    const fault = scenario.faults?.find((f) => f.note?.includes('Break it'));
    if (!fault) throw new Error('no Break it fault');
    const en = faultSpecLabel(fault, 'en');
    const ko = faultSpecLabel(fault, 'ko');
    expect(en).toContain('breaks at the sink layer of orders-db');
    // the panel as the Korean page names it, not its English name
    expect(ko).toContain('깨뜨려 보기');
    expect(ko).not.toContain('Break it');
    expect(ko).toContain(describeProperty(property, 'ko'));
    expect(ko).toContain('orders-db의 Kafka 밖 계층에서 깨짐');
    const allowed = allowList(scenarioWords(scenario));
    expect(englishWords(ko, allowed)).toEqual([]);
  });
});
