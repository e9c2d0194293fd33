/**
 * The engine behind the worker boundary (src/store/engine): the same engine core the page's worker
 * runs, driven in-process with every message structured-cloned as a worker's are. A preset gives the
 * traceHash and views of a run in Node; a long run reports progress and stops when cancelled; the
 * step budget, a refusal and an invalid scenario come back as such; an edit forks the last run.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { heavyScenario, longScenario } from '../bench/budgetScenarios';
import { embedPanels } from '../src/embed/embedPanels';
import type { EmbedRunPanels, EmbedStepPanels } from '../src/embed/panelTypes';
import { PAGE_BUDGETS } from '../src/sim/budget';
import { envelopeFaultText, narrate, narrateEnd, narrateStart } from '../src/sim/narration';
import { findPreset } from '../src/sim/presets';
import { PRESET_TEXT_KO } from '../src/sim/presets/ko';
import { runScenario } from '../src/sim/run';
import { decodeLink, encodeLink } from '../src/sim/scenario/link';
import { validateScenario } from '../src/sim/scenario/validate';
import { replayTo } from '../src/sim/trace/trace';
import { findingSentence, partitionRows, stateValueToString, storySteps, truncationsAt, verdictViewAt } from '../src/sim/views';
import { inProcessEngine } from '../src/store/engine/inProcessEngine';
import { resolveLink } from '../src/store/engine/resolveLink';
import { LaneCache } from '../src/ui/timeline/laneCache';
import { runExtents } from '../src/ui/timeline/laneExtents';
import { buildMscModel } from '../src/ui/timeline/mscModel';

const preset = (id: string) => {
  const p = findPreset(id);
  if (!p) throw new Error(id);
  return p.scenario;
};

describe('the engine behind the worker boundary', () => {
  it('runs a preset to the traceHash Node computes, and answers the views at a step', async () => {
    const engine = inProcessEngine();
    for (const id of ['lost-ack-idempotent', 'streams-eos-crash-restore']) {
      const r = await engine.start(preset(id));
      const trace = runScenario(preset(id));
      expect(r).toEqual({
        kind: 'done',
        outcome: {
          steps: trace.steps.length,
          traceHash: trace.traceHash,
          stopReason: trace.stopReason,
          endTime: trace.endTime,
          budget: null,
        },
      });
      for (const step of [0, 1, Math.floor(trace.steps.length / 2), trace.steps.length]) {
        const v = await engine.views(step);
        const local = replayTo(trace, step);
        expect(v?.step).toBe(step);
        expect(v?.time).toBe(local.time);
        expect(v?.states).toEqual([...local.actors].map(([a, s]) => [a, stateValueToString(s.value)]));
        expect(v?.partitions).toEqual(partitionRows(local.actors));
        expect(v?.verdict).toEqual(verdictViewAt(trace, local));
      }
    }
    engine.terminate();
  });

  it('reports progress on a long run and lands the run so far when cancelled', async () => {
    // no page budget (the scenario's own run.maxSteps, 500,000 steps, takes about a second here), so
    // that how fast this machine steps cannot end the run before its second progress message
    const unbounded = 1e9;
    const engine = inProcessEngine({ ...PAGE_BUDGETS, maxSteps: unbounded, maxBytes: unbounded * 64 });
    const seen: number[] = [];
    let cancelled = false;
    const r = await engine.start(longScenario(200000), {
      onProgress: (steps) => {
        seen.push(steps);
        if (!cancelled && seen.length >= 2) {
          cancelled = true;
          engine.cancel();
        }
      },
    });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen[1]).toBeGreaterThan(seen[0] as number);
    if (r.kind !== 'done') throw new Error(r.kind);
    expect(r.outcome.budget?.kind).toBe('cancelled');
    expect(r.outcome.steps).toBeGreaterThanOrEqual(seen[1] as number);
    // the run so far is a trace: its views answer
    expect((await engine.views(r.outcome.steps))?.step).toBe(r.outcome.steps);
    engine.terminate();
  });

  it('stops at the step budget, refuses the heavy scenario, and returns validation errors', async () => {
    const engine = inProcessEngine({ ...PAGE_BUDGETS, maxSteps: 500 });
    const r = await engine.start(longScenario(1000));
    expect(r.kind === 'done' && r.outcome.budget?.kind).toBe('steps');
    expect(r.kind === 'done' && r.outcome.steps).toBe(500);
    const heavy = await engine.start(heavyScenario());
    expect(heavy.kind === 'refused' && heavy.budget.field).toBe('topics[0].partitions');
    const bad = await engine.start({ id: 'x' });
    expect(bad.kind).toBe('invalid');
    engine.terminate();
  });

  it('a newer start replaces the run under way; an edit forks the last finished run', async () => {
    const engine = inProcessEngine();
    const first = engine.start(longScenario(150000));
    const base = preset('lost-ack-idempotent');
    const second = await engine.start(base);
    expect(await first).toEqual({ kind: 'replaced' });
    expect(second.kind).toBe('done');
    // a second lost ProduceResponse: an envelope fault, so the run goes on from a checkpoint
    const edited = {
      ...base,
      faults: [...(base.faults ?? []), { type: 'drop' as const, rpc: 'ProduceResponse', to: 'orders-service', nth: 2 }],
    };
    const full = runScenario(edited);
    expect(full.traceHash).not.toBe(second.kind === 'done' && second.outcome.traceHash);
    const forked = await engine.start(edited, { forkAt: 10 });
    expect(forked.kind === 'done' && forked.outcome.traceHash).toBe(full.traceHash);
    engine.terminate();
  });

  it("answers one envelope's payload of the last finished run, rebuilt in the engine as the trace reads it", async () => {
    const engine = inProcessEngine();
    expect(await engine.payload(0)).toBeNull(); // no run has finished
    const scenario = preset('lost-ack-idempotent');
    await engine.start(scenario);
    const trace = runScenario(scenario);
    const produces = trace.envelopes.toArray().filter((e) => e.rpc === 'Produce');
    expect(produces.length).toBeGreaterThan(1);
    for (const e of [trace.envelopes.at(0), ...produces, trace.envelopes.at(trace.envelopes.length - 1)]) {
      if (!e) throw new Error('no envelope');
      expect(await engine.payload(e.id), `envelope #${e.id}`).toEqual(e.payload);
    }
    // the retried Produce carries the same producer id, epoch and sequence as the one whose ack was lost
    const batches = produces.map((e) => JSON.stringify((e.payload.partitions as { batch: unknown }[])[0]?.batch));
    expect(new Set(batches).size).toBeLessThan(batches.length);
    expect(await engine.payload(trace.envelopes.length)).toBeNull();
    // after a newer run, an ask answers from that run
    await engine.start(preset('opening-story'));
    const story = runScenario(preset('opening-story'));
    expect(await engine.payload(1)).toEqual(story.envelopes.at(1)?.payload);
    engine.terminate();
  });

  it('resolves a share link or a preset id in the engine, and says why one cannot open', async () => {
    const engine = inProcessEngine();
    const story = preset('opening-story');
    expect(await engine.resolve(' opening-story ')).toEqual({ ok: true, scenario: story, view: {} });
    const link = encodeLink(story, { step: 7, selection: null, language: 'ko' });
    expect(await engine.resolve(link)).toEqual(resolveLink(link));
    const resolved = await engine.resolve(link);
    expect(resolved.ok && resolved.view).toMatchObject({ step: 7, language: 'ko' });
    const broken = await engine.resolve('#s=1.not-a-link');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.error.message).toBe(
      decodeLink('#s=1.not-a-link').ok === false && (decodeLink('#s=1.not-a-link') as { error: { message: string } }).error.message,
    );
    const unknown = await engine.resolve('no-such-preset');
    expect(!unknown.ok && unknown.error.message).toMatch(/^No shipped scenario is called "no-such-preset"/);
    expect(!unknown.ok && unknown.error.ko).toMatch(/^"no-such-preset"\(이\)라는 기본 제공 시나리오는 없습니다/);
    // only the embed resolves in the engine: the address it suggests is the embed's, ?preset=, not the page's #preset=
    expect(!unknown.ok && unknown.error.message).toContain('embed.html?preset=<id>');
    expect(!unknown.ok && unknown.error.message).not.toContain('#preset=');
    engine.terminate();
  });

  it('a refusal carries the scenario as the engine resolved it', async () => {
    const engine = inProcessEngine();
    const heavy = await engine.start(heavyScenario());
    const v = validateScenario(heavyScenario());
    expect(v.ok && heavy.kind === 'refused' && heavy.scenario).toEqual(v.ok && v.resolved.scenario);
    engine.terminate();
  });

  it("the embed's panels: once per run with done, and at a step, as the page computes them from its trace", async () => {
    const engine = inProcessEngine(undefined, embedPanels());
    for (const id of ['opening-story', 'streams-eos-crash-restore', 'acks-1-leader-failover-loss']) {
      const r = await engine.start(preset(id));
      if (r.kind !== 'done') throw new Error(r.kind);
      const trace = runScenario(preset(id));
      const run = r.outcome.panels as EmbedRunPanels;
      expect(run.scenario).toEqual(trace.scenario);
      expect(run.story).toEqual(storySteps(trace));
      expect(run.extents).toEqual(runExtents(trace));
      const msc = buildMscModel(trace);
      expect(run.msc).toEqual(msc);
      // every envelope the trace sent, as it lists them, without its payload
      expect(run.msc.envelopes.map((e) => e.id)).toEqual(trace.envelopes.map((e) => e.id));
      expect(run.msc.envelopes.some((e) => 'payload' in e)).toBe(false);
      expect(run.texts.en.title).toBe(trace.scenario.title);
      expect(run.texts.ko.title).toBe(PRESET_TEXT_KO[id]?.title);
      for (const [label, ko] of run.faultsKo) expect(ko).toBe(envelopeFaultText(trace, label, 'ko'));
      const lanes = new LaneCache();
      for (const step of [0, 1, Math.floor(trace.steps.length / 2), trace.steps.length]) {
        const local = replayTo(trace, step);
        for (const language of ['en', 'ko'] as const) {
          const p = (await engine.panels(step, { language })) as EmbedStepPanels;
          expect(p.step).toBe(step);
          expect(p.time).toBe(local.time);
          expect(p.language).toBe(language);
          expect(p.lanes).toEqual(lanes.lanes(local.actors, truncationsAt(trace, step)));
          const verdict = verdictViewAt(trace, local);
          expect(p.verdict).toEqual(verdict.layers.map((f) => findingSentence(f, verdict, language)));
          expect(p.narration).toBe(
            step === 0 ? narrateStart(trace, language, run.texts[language].title ?? '') : narrate(trace, step - 1, language),
          );
          expect(p.end).toBe(step === trace.steps.length ? narrateEnd(trace, language) : null);
          expect(p.logs.map((l) => l.records)).toEqual(
            partitionRows(local.actors)
              .filter((row) => !row.internal)
              .map((row) => row.records.length),
          );
          expect(p.meta).toBe(
            step === 0 ? '' : `#${step} · ${trace.steps.at(step - 1)?.t.toLocaleString('en')} ms · ${trace.steps.at(step - 1)?.actor}`,
          );
        }
      }
    }
    // the page's own engine (no provider) sends no panels
    const plain = inProcessEngine();
    const r = await plain.start(preset('opening-story'));
    expect(r.kind === 'done' && 'panels' in r.outcome).toBe(false);
    expect(await plain.panels(0, { language: 'en' })).toBeNull();
    engine.terminate();
    plain.terminate();
  });

  it("the page's side imports no engine code: only the protocol's types", () => {
    for (const file of ['engineClient.ts', 'protocol.ts', 'inProcessPort.ts']) {
      const text = readFileSync(new URL(`../src/store/engine/${file}`, import.meta.url), 'utf8');
      const imports = [...text.matchAll(/^import .* from '([^']+)';$/gm)];
      expect(imports.length).toBeGreaterThan(0);
      for (const [line, from] of imports)
        if (!from?.startsWith('./') || from === './engineCore') expect(line, file).toMatch(/^import type /);
    }
  });
});
