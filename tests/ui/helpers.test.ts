/**
 * The UI's pure helpers: jump targets, the steps behind each verdict counter, the actor fields, and
 * the Korean verdict sentences — checked against the engine over every preset.
 */
import { describe, expect, it } from 'vitest';
import { findingSentence } from '../../src/sim/checks/verdictText';
import { PRESETS } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { eventlessTopicsOf, outputTopicsOf, summarize } from '../../src/sim/trace/summary';
import { actorFields } from '../../src/ui/actors/fields';
import { allTargets, jumpTargets, nextPosition, previousPosition } from '../../src/ui/playback/jumps';
import { counterSteps, counterStepsAt } from '../../src/ui/verdict/counterSteps';
import { findingSteps } from '../../src/ui/verdict/findingSteps';

const runs = PRESETS.map((p) => ({ id: p.id, trace: runScenario(p.scenario) }));

describe('jump targets', () => {
  it('collect faults, client errors and markers, and land just after them', () => {
    const run = runs.find((r) => r.id === 'zombie-fencing');
    if (!run) throw new Error('zombie-fencing preset missing');
    const t = jumpTargets(run.trace.steps);
    expect(t.fault.length).toBeGreaterThan(0);
    expect(t.error.length).toBeGreaterThan(0);
    expect(t.marker.length).toBeGreaterThan(0);
    for (const i of t.error) expect((run.trace.steps.at(i)?.facts as Fact[]).some((f) => f.kind === 'clientError')).toBe(true);
    for (const i of t.marker)
      expect((run.trace.steps.at(i)?.facts as Fact[]).some((f) => f.kind === 'append' && f.control !== null)).toBe(true);
    for (const i of t.fault) expect(run.trace.steps.at(i)?.faults.length).toBeGreaterThan(0);
    const all = allTargets(t);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    // from the start, the next target is the first one, shown (position = index + 1)
    expect(nextPosition(all, 0)).toBe((all[0] as number) + 1);
    // standing on a target, next goes to the one after it and previous to the one before
    const second = (all[1] as number) + 1;
    expect(nextPosition(all, second)).toBe((all[2] as number) + 1);
    expect(previousPosition(all, second)).toBe((all[0] as number) + 1);
    expect(previousPosition(all, (all[0] as number) + 1)).toBeNull();
    expect(nextPosition(all, run.trace.steps.length)).toBeNull();
  });
});

describe('counter steps', () => {
  it('count exactly what the engine counts, for every preset, at the end and midway', () => {
    for (const { id, trace } of runs)
      for (const at of [Math.floor(trace.steps.length / 2), trace.steps.length]) {
        const v = summarize(trace, at).verdict.counters;
        const c = counterSteps(trace.steps, at, eventlessTopicsOf(trace));
        expect(c.transactionsCommitted.length, id).toBe(v.transactionsCommitted);
        expect(c.transactionsAborted.length, id).toBe(v.transactionsAborted);
        expect(c.producersFenced.length, id).toBe(v.producersFenced);
        expect(c.producersFatal.length, id).toBe(v.producersFatal);
        expect(c.commitFailures.length, id).toBe(v.commitFailures);
        expect(c.inboxConflicts.length, id).toBe(v.inboxConflicts);
        expect(c.retryDuplicates.length > 0, id).toBe(v.retryDuplicates > 0);
        expect(c.duplicateEventIdsSeenByApplications.length > 0, id).toBe(v.duplicateEventIdsSeenByApplications > 0);
        for (const list of Object.values(c)) for (const i of list) expect(i).toBeLessThan(at);
      }
  });

  it('at any step, cut from the whole run, are what a pass up to that step counts', () => {
    for (const { id, trace } of runs) {
      const ignored = eventlessTopicsOf(trace);
      const n = trace.steps.length;
      for (const at of [0, 1, Math.floor(n / 3), Math.floor(n / 2), n - 1, n])
        expect(counterStepsAt(trace, at, ignored), `${id} at ${at}`).toEqual(counterSteps(trace.steps, at, ignored));
    }
  });
});

describe('actor fields', () => {
  it('show every actor of every preset at the end of the run without holes, in both languages', () => {
    for (const { id, trace } of runs) {
      const view = stateAt(trace, trace.steps.length);
      for (const spec of trace.built.specs)
        for (const language of ['en', 'ko'] as const) {
          const fields = actorFields(spec.kind, view.actors.get(spec.id)?.context, language);
          expect(fields.length, `${id} ${spec.id}`).toBeGreaterThan(0);
          for (const f of fields) expect(`${f.label}: ${f.value}`, `${id} ${spec.id}`).not.toMatch(/undefined|NaN|\[object/);
        }
    }
  });

  it('a producer shows its producerId, epoch and next sequence', () => {
    const run = runs.find((r) => r.id === 'opening-story');
    if (!run) throw new Error('opening-story preset missing');
    const view = stateAt(run.trace, run.trace.steps.length);
    const fields = actorFields('producer', view.actors.get('orders-service.producer')?.context, 'en');
    expect(fields).toContainEqual({ label: 'producerId / epoch', value: '1000 / 0' });
    expect(fields).toContainEqual({ label: 'next sequence', value: 'orders-0=2' });
  });

  it('shows no fields for a kind it does not know (not even names an object has, such as constructor), nor without a context', () => {
    for (const kind of ['unknown', 'constructor', 'toString', '__proto__']) expect(actorFields(kind, {}, 'en')).toEqual([]);
    expect(actorFields('producer', undefined, 'en')).toEqual([]);
  });
});

describe('verdict sentences in Korean', () => {
  it('exist for every finding of every preset and name the same events', () => {
    for (const { id, trace } of runs) {
      const s = summarize(trace);
      for (const f of s.verdict.layers) {
        expect(findingSentence(f, s.verdict, 'en')).toBe(f.sentence);
        const ko = findingSentence(f, s.verdict, 'ko');
        expect(ko, `${id} ${f.layer}`).not.toBe(f.sentence);
        expect(ko).not.toMatch(/undefined|NaN|\[object/);
        for (const e of f.eventIds.slice(0, 3)) expect(ko, `${id} ${f.layer}`).toContain(e);
      }
    }
  });

  it('opening-story reads as the seed article would', () => {
    const run = runs.find((r) => r.id === 'opening-story');
    if (!run) throw new Error('opening-story preset missing');
    const v = summarize(run.trace).verdict;
    const ko = v.layers.map((f) => findingSentence(f, v, 'ko'));
    expect(ko).toContain(
      'Kafka 로그 orders: evt-789가 두 번 있습니다. orders-service가 send()를 2번 따로 호출했습니다. event_id만 알려 주는 비즈니스 중복입니다.',
    );
    expect(ko).toContain('billing의 처리: evt-789가 두 번 처리됐습니다.');
  });
});

describe('finding steps', () => {
  it('every finding about events links to at least one step that mentions one of them', () => {
    let checked = 0;
    for (const { id, trace } of runs) {
      const s = summarize(trace);
      const outputs = outputTopicsOf(trace.scenario);
      for (const f of s.verdict.layers) {
        if (f.eventIds.length === 0) continue;
        const steps = findingSteps(f, trace.steps, trace.steps.length, outputs);
        expect(steps.length, `${id} ${f.layer} ${f.subject}`).toBeGreaterThan(0);
        if (f.steps.length === 0) {
          checked++;
          for (const i of steps) {
            const mentions = (trace.steps.at(i)?.facts as Fact[]).some(
              (x) =>
                (x.kind === 'append' && x.eventIds.some((e) => e !== null && f.eventIds.includes(e))) ||
                (x.kind === 'sendResult' && x.eventId !== null && f.eventIds.includes(x.eventId)),
            );
            expect(mentions, `${id} ${f.layer} step ${i}`).toBe(true);
          }
        }
      }
    }
    // output and loss findings (the ones the engine leaves without steps) were among them
    expect(checked).toBeGreaterThan(0);
  });
});
