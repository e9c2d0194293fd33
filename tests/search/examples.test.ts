/**
 * The shipped examples (issue 16): each pitfall's search finds the failure its story scripts, each
 * defense's finds none within its bound, and a counterexample's link replays to the verdict it
 * promised. Fault spaces are narrowed to named points where that suffices, to keep CI fast; the full
 * per-preset k = 1 check runs in `npm run bench`.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import { decodeLink } from '../../src/sim/scenario/link';
import type { FaultSpaceOptions } from '../../src/sim/search/faultSpace';
import { checkProperty, type Property } from '../../src/sim/search/property';
import { counterexampleLink, noCounterexampleText } from '../../src/sim/search/report';
import { prepareBase } from '../../src/sim/search/runner';
import { type SearchConfig, searchAll } from '../../src/sim/search/search';
import { summarize } from '../../src/sim/trace/summary';

const searchPreset = (id: string, property: Property, space: FaultSpaceOptions, maxFaults = 1, extra: Partial<SearchConfig> = {}) => {
  const base = prepareBase(findPreset(id)?.scenario);
  return { base, result: searchAll(base, { property, maxFaults, space, ...extra }) };
};
const CRASH_POINTS: FaultSpaceOptions = { kinds: ['crash'], timing: 'points' };

describe('Break it on the shipped examples', () => {
  it('at-least-once-consumer-crash: finds the crash between processing and commit', () => {
    const { result } = searchPreset('at-least-once-consumer-crash', { id: 'processed-once', at: 'billing' }, CRASH_POINTS);
    const ce = result.counterexample;
    expect(ce?.k).toBe(1);
    expect(ce?.faults[0]).toMatchObject({ type: 'crash', target: 'billing', point: 'afterProcess' });
    expect(ce?.violation).toMatchObject({ layer: 'processing', subject: 'billing', status: 'more-than-once' });
  });

  it('db-sink-duplicate breaks at the database; db-sink-inbox holds: no counterexample among all its schedules with ≤ 1 fault', () => {
    const dup = searchPreset('db-sink-duplicate', { id: 'no-duplicates', at: 'orders-db' }, CRASH_POINTS).result;
    expect(dup.counterexample?.faults[0]).toMatchObject({ type: 'crash', target: 'billing', point: 'afterSideEffect' });
    expect(dup.counterexample?.violation).toMatchObject({ layer: 'sink', subject: 'orders-db', status: 'more-than-once' });
    const inbox = searchPreset('db-sink-inbox', { id: 'no-duplicates', at: 'orders-db' }, CRASH_POINTS).result;
    expect(inbox.counterexample).toBeNull();
    expect(inbox.completeUpTo).toBe(1);
    expect(inbox.tried).toBeGreaterThan(5);
    expect(noCounterexampleText(inbox)).toBe(
      `no counterexample among all ${inbox.tried} schedules with ≤ 1 fault (${inbox.collapsed} collapsed as equivalent)`,
    );
  });

  it('ctp-without-transactions-crash duplicates its output; ctp-exactly-once-crash: no counterexample for its read_committed output within k = 2', () => {
    const space: FaultSpaceOptions = { ...CRASH_POINTS, processes: ['enricher'] };
    const plain = searchPreset('ctp-without-transactions-crash', { id: 'no-duplicates', at: 'order-results' }, space, 2).result;
    expect(plain.counterexample?.k).toBe(1);
    expect(plain.counterexample?.violation).toMatchObject({ layer: 'output', subject: 'order-results', status: 'more-than-once' });
    const eos = searchPreset('ctp-exactly-once-crash', { id: 'no-duplicates', at: 'order-results' }, space, 2).result;
    expect(eos.counterexample).toBeNull();
    expect(eos.completeUpTo).toBe(2);
    expect(eos.tried).toBeGreaterThan(50);
  }, 240_000);

  it('lost-ack-no-idempotence duplicates in the log after a network fault; lost-ack-idempotent holds against every one', () => {
    const space: FaultSpaceOptions = { kinds: ['drop', 'delay', 'duplicate'], processes: ['orders-service'] };
    const plain = searchPreset('lost-ack-no-idempotence', { id: 'no-duplicates', at: 'orders' }, space).result;
    expect(plain.counterexample?.faults[0]).toMatchObject({ rpc: 'Produce', from: 'orders-service.producer' });
    expect(plain.counterexample?.violation).toMatchObject({ layer: 'log', subject: 'orders', status: 'more-than-once' });
    const idem = searchPreset('lost-ack-idempotent', { id: 'no-duplicates', at: 'orders' }, space).result;
    expect(idem.counterexample).toBeNull();
    expect(idem.completeUpTo).toBe(1);
  }, 120_000);

  it("a counterexample's link opens at its fault and replays to the verdict it promised", () => {
    const property: Property = { id: 'no-duplicates', at: 'orders-db' };
    const { base, result } = searchPreset('db-sink-duplicate', property, CRASH_POINTS);
    const ce = result.counterexample;
    if (!ce) throw new Error('no counterexample');
    const link = decodeLink(counterexampleLink(base, ce, property));
    if (!link.ok) throw new Error(link.error.message);
    expect(link.view.step).toBe((ce.steps[0] as number) + 1);
    expect(link.view.selection).toEqual({ kind: 'step', index: ce.steps[0] });
    expect(link.scenario.faults?.[0]?.note).toContain('Break it');
    const trace = runScenario(link.scenario);
    expect(trace.steps.at(ce.steps[0] as number)?.faults.length).toBe(1);
    expect(checkProperty(property, summarize(trace).verdict, trace.endTime)).toEqual(ce.violation);
  });

  it('a configuration that breaks with no fault is a counterexample of 0 faults', () => {
    const { result } = searchPreset('app-resend', { id: 'no-duplicates' }, {});
    expect(result.counterexample).toMatchObject({ k: 0, faults: [] });
    expect(result.tried).toBe(1);
  });

  it('workers split the work and still agree on the shortest, earliest counterexample', () => {
    const base = prepareBase(findPreset('at-least-once-consumer-crash')?.scenario);
    const cfg: SearchConfig = { property: { id: 'processed-once', at: 'billing' }, maxFaults: 1, space: CRASH_POINTS };
    const one = searchAll(base, cfg).counterexample;
    const shards = [0, 1].map((index) => searchAll(base, { ...cfg, shard: { index, count: 2 } }).counterexample);
    const best = shards.filter((c) => c !== null).sort((a, b) => (a.order < b.order ? -1 : 1))[0];
    expect(best?.faults).toEqual(one?.faults);
  });

  it('random schedules are shrunk to the fewest faults', () => {
    const base = prepareBase(findPreset('at-least-once-consumer-crash')?.scenario);
    const r = searchAll(base, {
      property: { id: 'processed-once', at: 'billing' },
      maxFaults: 0,
      space: CRASH_POINTS,
      randomSchedules: 20,
      randomMaxFaults: 3,
      seed: 5,
    });
    expect(r.counterexample?.via).toBe('random');
    expect(r.counterexample?.k).toBe(1);
    expect(r.counterexample?.violation.subject).toBe('billing');
  });

  it('a budget ends the search early, and the answer says how far it is complete', () => {
    const base = prepareBase(findPreset('db-sink-inbox')?.scenario);
    const r = searchAll(base, { property: { id: 'no-duplicates', at: 'orders-db' }, maxFaults: 1, space: CRASH_POINTS, maxSchedules: 3 });
    expect(r.budgetExhausted).toBe(true);
    expect(r.completeUpTo).toBe(0);
    expect(noCounterexampleText(r)).toContain('complete only up to 0 faults');
  });
});
