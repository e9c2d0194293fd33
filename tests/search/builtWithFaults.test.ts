/**
 * The search builds its configuration once and each schedule by putting its faults into that build
 * (scenario/build.ts `withFaults`, search/runner.ts `scheduleBuild`). A cached build must be what
 * building the schedule's scenario gives: the same kernel options (faults included) and actor specs,
 * and the same run — for every kind of fault the search injects, and for a scenario whose own faults
 * (log-cleaner runs, one per broker holding a replica) stay in the configuration. What the verdict
 * reads of the scenario (its readers, applications, writers …) is kept once per search too.
 */
import { describe, expect, it } from 'vitest';
import type { ActorSpec } from '../../src/sim/kernel/types';
import { findPreset } from '../../src/sim/presets';
import { runResolved } from '../../src/sim/run';
import { buildScenario, withFaults } from '../../src/sim/scenario/build';
import type { FaultSpec, Scenario } from '../../src/sim/scenario/schema';
import { enumerateFaults } from '../../src/sim/search/faultSpace';
import {
  configurationOf,
  prepareBase,
  runSchedule,
  runScheduleFast,
  SEARCH_CHECKPOINT_EVERY,
  scheduleBuild,
  scheduleScenario,
} from '../../src/sim/search/runner';
import { verdictScenarioPart } from '../../src/sim/trace/summary';

const specText = (specs: readonly ActorSpec[]) =>
  JSON.stringify(specs.map((s) => ({ id: s.id, kind: s.kind, boot: s.boot, bootAt: s.bootAt, input: s.input })));

/** The schedule's scenario as the search runs it, validated once with the configuration. */
const asSearched = (base: ReturnType<typeof prepareBase>, faults: readonly FaultSpec[]) => {
  const s = scheduleScenario(base, faults);
  const scenario: Scenario = { ...s, run: { ...s.run, checkpointEvery: SEARCH_CHECKPOINT_EVERY } };
  return { ...base.resolved, scenario };
};

describe("a schedule built from the configuration's build", () => {
  for (const id of ['ctp-exactly-once-crash', 'acks-1-leader-failover-loss', 'compaction-erases-events']) {
    it(`${id}: equals building the schedule's scenario, for each kind of fault`, () => {
      const preset = findPreset(id);
      if (!preset) throw new Error(`no preset ${id}`);
      const base = prepareBase(preset.scenario);
      const root = runSchedule(base, []);
      const candidates = enumerateFaults(root, -1);
      const kinds = new Set(candidates.map((c) => c.kind));
      expect(kinds.size).toBeGreaterThan(1);
      // the first fault of each kind, alone and after another one
      const firsts = [...kinds].map((k) => candidates.find((c) => c.kind === k)?.fault as FaultSpec);
      const schedules = [[], ...firsts.map((f) => [f]), firsts.slice(0, 2)];
      for (const faults of schedules) {
        const what = `${id}: ${JSON.stringify(faults)}`;
        const resolved = asSearched(base, faults);
        const fresh = buildScenario(resolved);
        const cached = scheduleBuild(base, resolved.scenario);
        expect(JSON.stringify(cached.options), what).toBe(JSON.stringify(fresh.options));
        // (a crash is two kernel faults: the crash and its restart)
        expect(cached.options.faults.length, what).toBeGreaterThanOrEqual(base.fixedFaults.length + faults.length);
        expect(specText(cached.specs), what).toBe(specText(fresh.specs));
        expect(cached.specs.map((s) => s.logic)).toEqual(fresh.specs.map((s) => s.logic));
        expect(JSON.stringify(cached.meta), what).toBe(JSON.stringify(fresh.meta));
        expect(JSON.stringify(cached.processes), what).toBe(JSON.stringify(fresh.processes));
        // and the same run as the engine's own path (validate once, build, run)
        const full = runResolved(resolved);
        const searched = runSchedule(base, faults);
        expect(searched.traceHash, what).toBe(full.traceHash);
        expect(runScheduleFast(base, faults).traceHash, what).toBe(full.traceHash);
        // what the verdict reads of the scenario, kept for the search, is the schedule's own
        expect(configurationOf(base).verdictPart, what).toEqual(verdictScenarioPart({ scenario: resolved.scenario, resolved }));
      }
    }, 120000);
  }

  it("a scenario's own log-cleaner runs stay: one timed fault per broker holding a replica", () => {
    const preset = findPreset('compaction-erases-events');
    if (!preset) throw new Error('no preset');
    const base = prepareBase(preset.scenario);
    const cleaner = base.fixedFaults.filter((f) => f.type === 'runCleaner');
    expect(cleaner.length).toBeGreaterThan(0);
    const fresh = buildScenario(asSearched(base, []));
    const rebuilt = withFaults(fresh, base.fixedFaults);
    expect(rebuilt.options.faults).toEqual(fresh.options.faults);
    expect(rebuilt.specs).toBe(fresh.specs);
  });
});
