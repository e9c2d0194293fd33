/**
 * The page's budgets (src/sim/budget.ts, src/store/simStore.ts): a scenario too large for the page is
 * refused before it runs, naming the field; a run stops at the step budget or the memory budget with
 * the run so far as its trace; Cancel does the same; every shipped preset fits.
 */
import { describe, expect, it } from 'vitest';
import { heavyScenario, longScenario } from '../bench/budgetScenarios';
import { approxBytes, MemoryMeter, PAGE_BUDGETS, scenarioAsks, sizeRefusal } from '../src/sim/budget';
import { PRESETS } from '../src/sim/presets';
import { startRun } from '../src/sim/run';
import { validateScenario } from '../src/sim/scenario/validate';
import { createSimStore } from '../src/store/simStore';
import { budgetBody, budgetTitle, headlessCommand } from '../src/ui/layout/budgetText';

const waitIdle = async (store: ReturnType<typeof createSimStore>) => {
  while (store.getState().status === 'running') await new Promise((r) => setTimeout(r, 0));
};

describe('page budgets', () => {
  it('counts what a scenario asks for', () => {
    const a = scenarioAsks(heavyScenario());
    expect(a).toMatchObject({ topics: 16, partitions: 1024, maxPartitions: 64, clients: 16, groupMembers: 15, records: 1000 });
  });

  it('refuses the heavy scenario up front, naming the field; every preset fits', () => {
    const r = sizeRefusal(heavyScenario());
    expect(r?.kind).toBe('size');
    expect(r?.field).toBe('topics[0].partitions');
    for (const p of PRESETS) expect(sizeRefusal(p.scenario), p.id).toBeNull();
    const body = budgetBody(r as NonNullable<typeof r>, 'en');
    expect(body).toContain('1,024 partitions × 15 consumers is 15,360 partition assignments');
    expect(body).toContain('16 topics');
    expect(budgetBody(r as NonNullable<typeof r>, 'ko')).toContain('토픽 16개');
    expect(headlessCommand(r as NonNullable<typeof r>)).toMatch(/^npm run sim -- scenario\.json --max-steps \d+$/);
  });

  it('the store shows a refusal and keeps no trace of it', () => {
    const store = createSimStore();
    store.getState().load(heavyScenario());
    const s = store.getState();
    expect(s.status).toBe('error');
    expect(s.trace).toBeNull();
    expect(s.budget?.kind).toBe('size');
    expect(s.budget?.scenario.topics.length).toBe(16);
  });

  it('a run stops at the step budget with the run so far as its trace', async () => {
    const store = createSimStore({ ...PAGE_BUDGETS, maxSteps: 3000 });
    store.getState().load(longScenario(5000));
    await waitIdle(store);
    const s = store.getState();
    expect(s.status).toBe('ready');
    expect(s.budget?.kind).toBe('steps');
    expect(s.budget?.steps).toBe(3000);
    expect(s.trace?.steps.length).toBe(3000);
    expect(budgetTitle(s.budget as NonNullable<typeof s.budget>, 'en')).toContain('step budget');
    expect(budgetBody(s.budget as NonNullable<typeof s.budget>, 'en')).toContain('3,000 steps were computed');
  });

  it('a run stops at the memory budget', async () => {
    const store = createSimStore({ ...PAGE_BUDGETS, maxBytes: 200000 });
    store.getState().load(longScenario(5000));
    await waitIdle(store);
    const s = store.getState();
    expect(s.budget?.kind).toBe('memory');
    expect(s.budget?.bytes).toBeGreaterThan(200000);
    expect(s.trace?.steps.length).toBe(s.budget?.steps);
  });

  it('Cancel lands the run so far; a run within budget has no notice', async () => {
    const store = createSimStore();
    store.getState().load(longScenario(20000));
    expect(store.getState().status).toBe('running');
    store.getState().cancel();
    const s = store.getState();
    expect(s.status).toBe('ready');
    expect(s.budget?.kind).toBe('cancelled');
    expect(s.trace?.steps.length).toBe(s.budget?.steps);
    store.getState().load(PRESETS[0]?.scenario);
    await waitIdle(store);
    expect(store.getState().budget).toBeNull();
  });

  it('estimates retained bytes from the recorder and the checkpoints', () => {
    const v = validateScenario(longScenario(2000));
    if (!v.ok) throw new Error('invalid');
    const { sim } = startRun(v.resolved);
    sim.run(5000);
    const meter = new MemoryMeter();
    const bytes = meter.estimate(sim);
    expect(bytes).toBeGreaterThan(sim.recorder?.retainedBytes ?? 0);
    expect(approxBytes({ a: [1, 2, 3], b: 'xy' })).toBeGreaterThan(0);
  });

  it('counts the structure checkpoints share once, so a long run is not stopped for memory it does not use', () => {
    const shared = { script: Array.from({ length: 1000 }, (_, i) => ({ key: `k${i}` })) };
    const seen = new WeakSet<object>();
    const first = approxBytes({ step: 1, actor: shared }, Number.POSITIVE_INFINITY, seen);
    const second = approxBytes({ step: 2, actor: shared }, Number.POSITIVE_INFINITY, seen);
    expect(first).toBeGreaterThan(20000);
    expect(second).toBeLessThan(200);
    // a 20,000-record producer keeps its script in every checkpoint: the run is not a memory case
    const v = validateScenario(longScenario(20000));
    if (!v.ok) throw new Error('invalid');
    const { sim } = startRun(v.resolved);
    sim.run(8000);
    expect(sim.checkpoints.length).toBeGreaterThan(8);
    expect(new MemoryMeter().estimate(sim)).toBeLessThan(PAGE_BUDGETS.maxBytes / 4);
  });
});
