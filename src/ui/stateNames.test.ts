/**
 * States and events as the page shows them (stateNames.ts): Kafka's names without the model's prefix,
 * the model's own in plain words in English and Korean — for every state of every machine and every
 * timer the engine sets, so none reaches a person as an internal path.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPreset, runScenario, stateAt } from '../sim';
import { actorChart, type ChartNode } from '../sim/views';
import { eventWords, NAMED, shownState, shownTransition, statePathWords } from './stateNames';

const stable = 'running.membership.STABLE|running.fetching.ASSIGNED.IDLE';
const inFlight = 'running.membership.STABLE|running.fetching.ASSIGNED.FETCH_IN_FLIGHT';

describe('states as the page shows them', () => {
  it("shows Kafka's name without the model's prefix", () => {
    expect(shownState('producer', 'live.READY', 'en')).toBe('READY');
    expect(shownState('producer', 'live.IN_TRANSACTION', 'ko')).toBe('IN_TRANSACTION');
    expect(shownState('producer', 'FATAL_ERROR', 'en')).toBe('FATAL_ERROR');
    expect(shownState('consumer', inFlight, 'en')).toBe('STABLE · fetch in flight');
    expect(shownState('consumer', inFlight, 'ko')).toBe('STABLE · fetch 요청 중');
  });

  it("says the model's own states in words, in English and Korean", () => {
    expect(shownState('consumer-app', 'running.polling', 'en')).toBe('polling');
    expect(shownState('consumer-app', 'running.polling', 'ko')).toBe('poll 중');
    expect(shownState('producer', 'created', 'en')).toBe('not started');
    expect(shownState('streams-thread', 'restoring.readingChangelog', 'en')).toBe('restoring: reading the changelog');
    expect(shownState('', 'down', 'ko')).toBe('중단됨');
  });

  it('tells a transition inside a parallel state by the regions it changed', () => {
    expect(shownTransition('consumer', stable, inFlight, 'en')).toEqual({ before: 'no fetch in flight', after: 'fetch in flight' });
    expect(shownTransition('producer', 'live.READY', 'live.IN_TRANSACTION', 'en')).toEqual({ before: 'READY', after: 'IN_TRANSACTION' });
    expect(shownTransition('consumer', 'created', stable, 'en')).toEqual({ before: 'not started', after: 'STABLE · no fetch in flight' });
  });

  it("names every state of every machine: Kafka's name or words in both languages, never a path", () => {
    const kinds = new Map<string, string[]>();
    for (const id of ['opening-story', 'streams-eos-crash-restore', 'outbox-cdc', 'api-idempotency-key', 'min-insync-blocks-writes']) {
      const preset = findPreset(id);
      if (!preset) throw new Error(`no preset ${id}`);
      const trace = runScenario(preset.scenario);
      const view = stateAt(trace, 0);
      for (const spec of trace.built.specs) {
        const chart = actorChart(trace, view, spec.id)?.chart;
        if (!chart) continue;
        const leaves = chart.root.children.flatMap(function walk(n: ChartNode): string[] {
          return n.children.length === 0 ? [n.path] : n.children.flatMap(walk);
        });
        kinds.set(spec.kind, [...new Set([...(kinds.get(spec.kind) ?? []), ...leaves])]);
      }
    }
    expect([...kinds.keys()].sort()).toEqual(Object.keys(NAMED.states).sort());
    for (const [kind, paths] of kinds)
      for (const path of paths) {
        const en = statePathWords(kind, path, 'en');
        const ko = statePathWords(kind, path, 'ko');
        const kafkaName = /^[A-Z][A-Z0-9_]*$/.test(en);
        const named = NAMED.states[kind]?.[path] ?? NAMED.common[path];
        expect(kafkaName || named !== undefined, `${kind} ${path}`).toBe(true);
        expect(kafkaName ? ko === en : ko !== en, `${kind} ${path} in Korean`).toBe(true);
        expect(en.includes('.') && !en.includes(' '), `${kind} ${path} → ${en}`).toBe(false);
      }
  });
});

describe('events as the page shows them', () => {
  it("says the model's timers and its own calls in words; RPCs and Kafka's API calls keep their names", () => {
    expect(eventWords('timer', 'lingerExpired', 'en')).toBe('linger.ms elapsed');
    expect(eventWords('timer', 'lingerExpired', 'ko')).toBe('linger.ms 경과');
    expect(eventWords('call', 'reply', 'en')).toBe('reply to the application');
    expect(eventWords('deliver', 'Produce', 'en')).toBeNull();
    expect(eventWords('call', 'commitTransaction', 'en')).toBeNull();
  });

  it('names every timer the engine sets, in English and Korean', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => {
        const p = join(dir, f);
        return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
      });
    const timers = new Set<string>();
    for (const f of files('src/sim'))
      for (const m of readFileSync(f, 'utf8').matchAll(/Timer<([^>]*)>/g))
        for (const name of (m[1] ?? '').matchAll(/'([a-zA-Z]+)'/g)) timers.add(name[1] ?? '');
    expect(timers.size).toBeGreaterThan(30);
    for (const timer of timers) {
      expect(eventWords('timer', timer, 'en'), timer).not.toBeNull();
      expect(eventWords('timer', timer, 'ko'), timer).not.toBe(eventWords('timer', timer, 'en'));
    }
  });
});
