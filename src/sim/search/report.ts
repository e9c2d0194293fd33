/**
 * A search's answer in words and as a share link: the counterexample's scenario (the configuration
 * with the schedule's faults, each noted with what it broke) opening at the first fault, or the
 * bounded "no counterexample among all N schedules with ≤ k faults".
 */
import { LAYER_NAMES, STATUS_NAMES } from '../checks/verdictText';
import { describeFault } from '../scenario/build';
import { encodeLink, type LinkLanguage } from '../scenario/link';
import type { FaultSpec, Scenario } from '../scenario/schema';
import { describeProperty, type Property } from './property';
import { type SearchBase, scheduleScenario } from './runner';
import type { Counterexample, SearchResult } from './search';

const clip = (s: string, n = 200) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** What broke, at which layer: "processing layer, billing: Processing in billing: evt-2 processed twice." */
export function brokeText(ce: Counterexample, lang: LinkLanguage = 'en'): string {
  const v = ce.violation;
  const where = v.subject ? `${v.layer}${lang === 'ko' ? '' : ' layer'}, ${v.subject}` : v.layer;
  if (lang === 'ko')
    // the layer and the status named as the verdict table names them
    return `${LAYER_NAMES[v.layer]?.[1] ?? v.layer}${v.subject ? ` (${v.subject})` : ''}: ${STATUS_NAMES[v.status]?.[1] ?? v.status}${v.eventIds.length ? ` — ${v.eventIds.join(', ')}` : ''}`;
  return `${where}: ${v.sentence}`;
}

/**
 * The counterexample as a scenario: the faults carry a note saying they were found by Break it, and
 * what broke; the scenario says Break it found it (`foundBy`), so the page's header names it a
 * counterexample of its preset rather than a run the person edited (scenario/origin.ts).
 */
export function counterexampleScenario(base: SearchBase, ce: Counterexample, property: Property): Scenario {
  const faults: FaultSpec[] = ce.faults.map((f, i) => ({
    ...f,
    note: clip(
      // no parentheses at its end: narration and the fault list put the note in parentheses of their own
      `${describeFault(f)} — Break it${ce.faults.length > 1 ? ` (${i + 1}/${ce.faults.length})` : ''}: ${describeProperty(property)} breaks at the ${ce.violation.layer} layer${ce.violation.subject ? ` of ${ce.violation.subject}` : ''}`,
    ),
  }));
  return { ...scheduleScenario(base, faults), foundBy: 'break-it' };
}

/** The share link of a counterexample, opening just after its first fault fired (the step selected). */
export function counterexampleLink(base: SearchBase, ce: Counterexample, property: Property, language: LinkLanguage = 'en'): string {
  const first = ce.steps[0] ?? 0;
  return encodeLink(counterexampleScenario(base, ce, property), {
    step: ce.faults.length ? first + 1 : 0,
    selection: ce.faults.length ? { kind: 'step', index: first } : null,
    language,
  });
}

/** The bounded answer when nothing was found. */
export function noCounterexampleText(result: SearchResult, lang: LinkLanguage = 'en'): string {
  const k = result.completeUpTo;
  if (lang === 'ko') {
    if (k >= 0 && !result.budgetExhausted && k >= result.maxFaults)
      return `결함 ${k}개 이하인 스케줄 ${result.tried}개 전부에서 반례 없음 (그중 ${result.collapsed}개는 같은 결과로 합쳐짐)`;
    return `반례 없음: 스케줄 ${result.tried}개를 시도했고, 결함 ${Math.max(0, k)}개 이하는 모두 확인함 (예산 소진)`;
  }
  if (k >= 0 && !result.budgetExhausted && k >= result.maxFaults)
    return `no counterexample among all ${result.tried} schedules with ≤ ${k} fault${k === 1 ? '' : 's'} (${result.collapsed} collapsed as equivalent)`;
  return `no counterexample among ${result.tried} schedules tried; complete only up to ${Math.max(0, k)} fault${k === 1 ? '' : 's'} (budget exhausted)`;
}

export function faultLines(ce: Counterexample): string[] {
  return ce.faults.map((f, i) => `${i + 1}. ${describeFault(f)} [step ${ce.steps[i]}]`);
}
