/**
 * A fetch, and an acknowledged send, of several records is narrated with each partition's own offsets:
 * one range over several partitions ("from a-0, a-1, a-2 at offset 0–3") named offsets some partitions
 * do not have. A Streams instance's restore consumer is named as such.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../src/sim/narration';
import { PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';

function fetchedBy(id: string, consumer: string): { en: string; ko: string } {
  const p = PRESETS.find((x) => x.id === id);
  if (!p) throw new Error(`no preset ${id}`);
  const t = runScenario(p.scenario);
  const s = t.steps.find((st) => (st.facts as Fact[]).filter((f) => f.kind === 'delivered' && f.consumer === consumer).length > 1);
  if (!s) throw new Error(`no fetch of several records by ${consumer}`);
  return { en: narrate(t, s.i, 'en'), ko: narrate(t, s.i, 'ko') };
}

describe('the offsets of a fetch, partition by partition', () => {
  it('rekey-by-event-id: three partitions, each with its own offsets', () => {
    const { en, ko } = fetchedBy('rekey-by-event-id', 'event-reader');
    expect(en).toContain('from orders-by-event-0 at offset 0, orders-by-event-1 at offset 0 and orders-by-event-2 at offsets 0–3 with');
    expect(ko).toContain('orders-by-event-0의 offset 0, orders-by-event-1의 offset 0, orders-by-event-2의 offset 0–3 레코드 6개');
  });

  it('opening-story: one partition, two records: "offsets"', () => {
    expect(fetchedBy('opening-story', 'billing').en).toContain('from orders-0 at offsets 100–101 with');
  });

  it('streams-eos-crash-restore: the acknowledged commit names the changelog and the output with their offsets', () => {
    const p = PRESETS.find((x) => x.id === 'streams-eos-crash-restore');
    if (!p) throw new Error('no preset');
    const t = runScenario(p.scenario);
    const texts = t.steps.map((s) => narrate(t, s.i, 'en'));
    expect(texts).toContain(
      "counter's send() of view-1 is acknowledged: page-counter-count-store-changelog-0 offset 0, view-counts-0 offset 0.",
    );
    expect(texts.some((x) => x.includes('page-counter-count-store-changelog-0 offsets 5–8, view-counts-0 offsets 5–8'))).toBe(true);
    // the restore consumer's fetch: "counter's restore consumer", not "counter-restore's consumer"
    expect(texts.some((x) => x.includes("counter's restore consumer skipped page-counter-count-store-changelog-0 offset 1"))).toBe(true);
    expect(texts.filter((x) => x.includes("counter-restore's"))).toEqual([]);
  });

  it('one marker skipped: "moves past it"; several: "moves past them"', () => {
    const p = PRESETS.find((x) => x.id === 'transaction-timeout');
    if (!p) throw new Error('no preset');
    const t = runScenario(p.scenario);
    const texts = t.steps.map((s) => narrate(t, s.i, 'en'));
    expect(
      texts.some((x) =>
        x.includes(
          'skipped orders-0 offset 0 (records of an aborted transaction) and orders-0 offset 1 (a transaction marker); its position still moves past them',
        ),
      ),
    ).toBe(true);
    const z = runScenario((PRESETS.find((x) => x.id === 'open-transaction-pins-lso') ?? p).scenario);
    const zt = z.steps.map((s) => narrate(z, s.i, 'en'));
    expect(zt.some((x) => x.includes('skipped events-0 offset 3 (a transaction marker); its position still moves past it;'))).toBe(true);
    expect(zt.filter((x) => /skipped \S+ offset \d+ \([^)]*\); its position still moves past them/.test(x))).toEqual([]);
  });
});
