/**
 * Korean is complete, checked without a browser (the browser walk is e2e/korean.test.ts): the page's
 * Korean string tables, the presets' Korean texts and notes, and every fault label narration, the
 * fault list and the message diagram show — a shipped fault, one injected from the page, one without
 * a note — carry no English word outside Kafka's names and the runs' identifiers (e2e/korean-words.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowList, englishWords, runWords, scenarioWords, stateWords } from '../e2e/korean-words';
import { shareText } from '../src/share/strings';
import { findingSentence } from '../src/sim/checks/verdictText';
import {
  envelopeFaultText,
  explainPause,
  faultSpecLabel,
  narrate,
  narrateEnd,
  narrateStart,
  stepFaultText,
  translateEditNote,
} from '../src/sim/narration';
import { parseFaultDescription } from '../src/sim/narration/faultLabels';
import { findPreset, PRESETS } from '../src/sim/presets';
import { PRESET_TEXT_KO } from '../src/sim/presets/ko';
import { NOTES_KO } from '../src/sim/presets/koNotes';
import { runScenario, type Trace } from '../src/sim/run';
import { describeFault } from '../src/sim/scenario/build';
import {
  advancePastTimeout,
  injectEnvelopeFault,
  injectProcessFault,
  removeFault,
  resendRecord,
  startSecondInstance,
} from '../src/sim/scenario/edits';
import type { FaultSpec } from '../src/sim/scenario/schema';
import { summarize } from '../src/sim/trace/summary';
import { COMPARE_STRINGS } from '../src/ui/compare/compareStrings';
import { CONFIG_STRINGS } from '../src/ui/config/strings';
import { COST_STRINGS } from '../src/ui/cost/costStrings';
import { DEFENSE_ROWS } from '../src/ui/gallery/defenses';
import { strings } from '../src/ui/i18n';
import { INJECT_STRINGS } from '../src/ui/inject/strings';
import { BREAK_IT_TEXT } from '../src/ui/search/strings';
import { replicaWords } from '../src/ui/timeline/replicaText';
import { timelineStrings } from '../src/ui/timeline/timelineText';

const allowed = allowList(PRESETS.flatMap((p) => [p.id, ...scenarioWords(p.scenario)]));

/** Every string of a table, and what its functions say for sample arguments. */
function texts(where: string, v: unknown, out: [string, string][] = []): [string, string][] {
  if (typeof v === 'string') out.push([where, v]);
  else if (typeof v === 'function') {
    const r = (v as (...a: unknown[]) => unknown)('x', 1, 2, 3);
    if (typeof r === 'string') out.push([where, r]);
  } else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) texts(`${where}.${k}`, x, out);
  return out;
}

const english = (list: [string, string][]) => list.flatMap(([where, t]) => englishWords(t, allowed).map((w) => `${where}: ${w} in "${t}"`));

/** Every TypeScript source below `dir`, tests left out. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

describe('Korean string tables', () => {
  it('have no English word outside Kafka’s names', () => {
    const list = [
      ...texts('presets', PRESET_TEXT_KO),
      ...texts('notes', NOTES_KO),
      ...texts(
        'gallery',
        DEFENSE_ROWS.map((r) => [r.problem.ko, r.defense.ko, r.boundary.ko]),
      ),
      ...texts('page', { ...strings('ko'), language: undefined }),
      ...texts('inject', INJECT_STRINGS.ko),
      ...texts('config', CONFIG_STRINGS.ko),
      ...texts('share', shareText('ko')),
      ...texts('timeline', { ...timelineStrings('ko'), language: undefined }),
      ...texts('replicas', replicaWords('ko')),
      ...texts('cost', COST_STRINGS.ko),
      ...texts('compare', COMPARE_STRINGS.ko),
    ];
    expect(list.length).toBeGreaterThan(400);
    expect(english(list)).toEqual([]);
  });

  it('call a step 단계, as the step counter and the narration do (never 스텝)', () => {
    const list = [
      ...texts('page', { ...strings('ko'), language: undefined }),
      ...texts('inject', INJECT_STRINGS.ko),
      ...texts('config', CONFIG_STRINGS.ko),
      ...texts('share', shareText('ko')),
      ...texts('timeline', { ...timelineStrings('ko'), language: undefined }),
      ...texts('cost', COST_STRINGS.ko),
      ...texts('compare', COMPARE_STRINGS.ko),
      ...texts('breakIt', BREAK_IT_TEXT.ko),
    ];
    expect(list.filter(([, t]) => t.includes('단계')).length).toBeGreaterThan(10);
    expect(list.filter(([, t]) => t.includes('스텝')).map(([where, t]) => `${where}: ${t}`)).toEqual([]);
  });

  it('nor does any other text in the sources, the narration of the engine included', () => {
    expect(sourceFiles('src').filter((path) => readFileSync(path, 'utf8').includes('스텝'))).toEqual([]);
  });

  it('write Kafka’s term offset in Latin script (docs/i18n.md), never 오프셋, outside comments', () => {
    const found = sourceFiles('src').flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.includes('오프셋') && !/^\s*(\/\/|\*)/.test(line) ? [`${path}:${i + 1}`] : [])),
    );
    expect(found).toEqual([]);
    expect(timelineStrings('ko').legendGroup).toContain('offset');
  });

  it('hold every note of every shipped scenario', () => {
    const notes: string[] = [];
    const visit = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(visit);
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) {
          if (k === 'note' && typeof x === 'string') notes.push(x);
          else visit(x);
        }
    };
    for (const p of PRESETS) visit(p.scenario);
    expect(notes.filter((n) => NOTES_KO[n] === undefined)).toEqual([]);
  });
});

/** What a run shows of its faults: each step's fault lines, fault steps' labels, envelopes' faults. */
function shownOf(trace: Trace): { kind: 'step' | 'envelope'; text: string }[] {
  const out = new Map<string, { kind: 'step' | 'envelope'; text: string }>();
  for (const s of trace.steps) {
    for (const f of s.faults) out.set(`s${f}`, { kind: 'step', text: f });
    if (s.kind === 'fault') out.set(`s${s.label}`, { kind: 'step', text: s.label });
  }
  for (const e of trace.envelopes) if (e?.fault) out.set(`e${e.fault}`, { kind: 'envelope', text: e.fault });
  return [...out.values()];
}

describe('fault labels in Korean', () => {
  it('every label a shipped run shows is said in Korean', () => {
    for (const p of PRESETS) {
      const trace = runScenario(p.scenario);
      for (const f of p.scenario.faults ?? []) {
        const ko = faultSpecLabel(f, 'ko');
        expect(ko, `${p.id}: ${describeFault(f)}`).toMatch(/[가-힣]/);
        expect(englishWords(ko, allowed), `${p.id}: ${ko}`).toEqual([]);
      }
      for (const shown of shownOf(trace)) {
        const ko = shown.kind === 'step' ? stepFaultText(trace, shown.text, 'ko') : envelopeFaultText(trace, shown.text, 'ko');
        expect(englishWords(ko, allowed), `${p.id}: ${shown.text} → ${ko}`).toEqual([]);
      }
    }
  });

  it('a fault without a note is described in Korean, and a description reads back into its fault', () => {
    const faults: FaultSpec[] = [
      { type: 'drop', rpc: 'ProduceResponse', to: 'orders-service', nth: 1 },
      { type: 'delay', rpc: 'Produce', from: 'orders-service', nth: 2, delayMs: 3000 },
      { type: 'duplicate', rpc: 'FetchResponse', count: 3, nth: 2, where: { topic: 'orders' } },
      { type: 'reset', rpc: 'Produce', from: 'a', to: 'broker-0', nth: 1 },
      { type: 'runCleaner', at: 5000, topic: 'account-tier' },
      { type: 'resetOffsets', at: 55000, group: 'billing', topic: 'orders', to: 'earliest' },
      { type: 'resetOffsets', at: 9, group: 'g', topic: 'orders', partition: 2, to: 7 },
      { type: 'resetOffsets', at: 9, group: 'g', topic: 'orders', shiftBy: -3 },
      { type: 'crash', target: 'billing', at: 1200, durationMs: 500 },
      { type: 'pause', target: 'instance-a', at: 12, durationMs: 3000 },
      { type: 'crash', target: 'billing', point: 'afterProcess', where: { offset: 1 }, nth: 2 },
      { type: 'restart', target: 'billing', at: 10 },
      { type: 'controlledShutdown', target: 'broker-1', at: 4000, durationMs: 5000 },
      { type: 'controlledShutdown', target: 'broker-0', at: 12 },
    ] as FaultSpec[];
    for (const f of faults) {
      const ko = faultSpecLabel(f, 'ko');
      expect(ko, describeFault(f)).toMatch(/[가-힣]/);
      expect(englishWords(ko, allowed), ko).toEqual([]);
      const back = parseFaultDescription(describeFault(f));
      expect(back && describeFault(back), describeFault(f)).toBe(describeFault(f));
    }
  });

  it('a fault, a resend and a second instance injected from the page, their confirmations and a removal are said in Korean', () => {
    const story = findPreset('zombie-fencing');
    if (!story) throw new Error('zombie-fencing');
    const trace = runScenario(story.scenario);
    const step = Math.floor(trace.steps.length / 3);
    const at = { trace, step };
    const envelope = trace.envelopes.find((e) => e && e.sentStep < step && (e.deliveredStep ?? Number.POSITIVE_INFINITY) >= step);
    const client = story.scenario.clients[0]?.id ?? '';
    const outcomes = [
      envelope ? injectEnvelopeFault(story.scenario, { ...at, envelopeId: envelope.id, action: { type: 'delay', delayMs: 700 } }) : null,
      injectProcessFault(story.scenario, { ...at, process: client, action: { type: 'pause', ms: 2000 } }),
      injectProcessFault(story.scenario, { ...at, process: client, action: { type: 'crash', restartAfterMs: 100 } }),
      advancePastTimeout(story.scenario, { ...at, client, timeout: 'transaction.timeout.ms' }),
      startSecondInstance(story.scenario, { ...at, client }),
      removeFault(story.scenario, 0),
    ];
    const resent = resendRecord(story.scenario, { trace, step: trace.steps.length, topic: 'orders', partition: 0, offset: 2 });
    expect(resent.ok).toBe(true);
    for (const o of [...outcomes, resent]) {
      if (!o?.ok) continue;
      const after = runScenario(o.scenario);
      const ko = translateEditNote(after, o.note, 'ko');
      expect(ko, o.note).toMatch(/[가-힣]/);
      expect(englishWords(ko, allowed), `${o.note} → ${ko}`).toEqual([]);
      for (const f of o.scenario.faults ?? []) expect(englishWords(faultSpecLabel(f, 'ko'), allowed), describeFault(f)).toEqual([]);
    }
    expect(explainPause("transaction.timeout.ms (60000 ms) + the coordinator's check interval (10000 ms) + 1 s", 'ko')).toMatch(
      /코디네이터/,
    );
  });
});

describe('narration and the verdict in Korean', () => {
  it('every step of every shipped run, its start and its end, and the verdict at its end and halfway', () => {
    const problems: string[] = [];
    for (const p of PRESETS) {
      const trace = runScenario(p.scenario);
      const words = allowList([
        ...PRESETS.flatMap((x) => [x.id, ...scenarioWords(x.scenario)]),
        ...runWords(trace.built),
        ...stateWords(trace.steps),
      ]);
      const say = (where: string, text: string) => {
        for (const w of englishWords(text, words)) if (problems.length < 60) problems.push(`${p.id} ${where}: ${w} — ${text}`);
      };
      say('start', narrateStart(trace, 'ko', PRESET_TEXT_KO[p.id]?.title ?? ''));
      trace.steps.forEach((_, i) => {
        say(`step ${i + 1}`, narrate(trace, i, 'ko'));
      });
      say('end', narrateEnd(trace, 'ko'));
      for (const at of [trace.steps.length, Math.floor(trace.steps.length / 2)]) {
        const verdict = summarize(trace, at).verdict;
        for (const f of verdict.layers) say(`verdict ${f.layer} at ${at}`, findingSentence(f, verdict, 'ko'));
      }
    }
    expect(problems).toEqual([]);
  });
});
