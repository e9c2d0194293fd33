/**
 * The words of a run the page refused, stopped at a budget, or that was cancelled (English and
 * Korean): what the scenario asks for, how far it got, and how to run it headless.
 */

import type { BudgetStop, ScenarioAsks } from '../../sim';
import { asksText as asksTextEn, groupDigits } from '../../sim/views';

type Lang = 'en' | 'ko';

// English and Korean group digits alike (groupDigits: no Intl on the main thread)
const n = (x: number, _lang: Lang) => groupDigits(x);
const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

function asksText(a: ScenarioAsks, lang: Lang): string {
  if (lang === 'ko')
    return (
      `토픽 ${n(a.topics, lang)}개(파티션 합계 ${n(a.partitions, lang)}개, 가장 큰 토픽은 ${n(a.maxPartitions, lang)}개), ` +
      `클라이언트 ${n(a.clients, lang)}개(그중 컨슈머·Streams 애플리케이션 ${n(a.groupMembers, lang)}개), 레코드 ${n(a.records, lang)}개` +
      (a.maxSteps !== null ? `, run.maxSteps = ${n(a.maxSteps, lang)}` : '')
    );
  return asksTextEn(a);
}

/** The command that runs it to the end outside the browser. */
export function headlessCommand(stop: BudgetStop): string {
  const steps = Math.max(stop.asks.maxSteps ?? 0, stop.budgets.maxSteps * 10);
  return `npm run sim -- scenario.json --max-steps ${Math.min(steps, 3000000)}`;
}

export function budgetTitle(stop: BudgetStop, lang: Lang): string {
  const en = {
    size: 'This scenario is too large to run in the page',
    steps: 'The page stopped this run at its step budget',
    memory: 'The page stopped this run at its memory budget',
    cancelled: 'Run cancelled',
  };
  const ko = {
    size: '이 시나리오는 페이지에서 실행하기에 너무 큽니다',
    steps: '페이지가 단계 예산에서 이 실행을 멈췄습니다',
    memory: '페이지가 메모리 예산에서 이 실행을 멈췄습니다',
    cancelled: '실행을 취소했습니다',
  };
  return (lang === 'ko' ? ko : en)[stop.kind];
}

/** What happened and what the scenario asks for (one paragraph). */
export function budgetBody(stop: BudgetStop, lang: Lang): string {
  const a = stop.asks;
  const asks = asksText(a, lang);
  const assignments = a.partitions * Math.max(1, a.groupMembers);
  if (lang === 'ko') {
    const what = {
      size: `${stop.field ?? 'topics'}: 파티션 ${n(a.partitions, lang)}개 × 컨슈머 ${n(a.groupMembers, lang)}개 = 파티션 할당 ${n(assignments, lang)}개로, 페이지가 실행하는 한도 ${n(stop.budgets.maxAssignments, lang)}개를 넘습니다. 실행하지 않았습니다.`,
      steps: `${n(stop.steps, lang)}단계를 계산했고(예산 ${n(stop.budgets.maxSteps, lang)}단계) 시나리오는 아직 끝나지 않았습니다. 보이는 것은 지금까지의 실행입니다.`,
      memory: `${n(stop.steps, lang)}단계 뒤 보관 메모리 추정치가 약 ${n(mb(stop.bytes), lang)} MB입니다(예산 ${n(mb(stop.budgets.maxBytes), lang)} MB). 보이는 것은 지금까지의 실행입니다.`,
      cancelled: `${n(stop.steps, lang)}단계에서 멈췄습니다. 보이는 것은 지금까지의 실행입니다.`,
    };
    return `${what[stop.kind]} 시나리오가 요구하는 것: ${asks}.`;
  }
  const what = {
    size: `${stop.field ?? 'topics'}: ${n(a.partitions, lang)} partitions × ${n(a.groupMembers, lang)} consumers is ${n(assignments, lang)} partition assignments, beyond the ${n(stop.budgets.maxAssignments, lang)} the page runs. It was not run.`,
    steps: `${n(stop.steps, lang)} steps were computed (the budget is ${n(stop.budgets.maxSteps, lang)}) and the scenario had more to do. What you see is the run so far.`,
    memory: `After ${n(stop.steps, lang)} steps the run retained about ${n(mb(stop.bytes), lang)} MB (the budget is ${n(mb(stop.budgets.maxBytes), lang)} MB). What you see is the run so far.`,
    cancelled: `It stopped at ${n(stop.steps, lang)} steps. What you see is the run so far.`,
  };
  return `${what[stop.kind]} The scenario asks for ${asks}.`;
}

export function headlessHint(lang: Lang): string {
  return lang === 'ko'
    ? '브라우저 밖에서 끝까지 실행하려면 시나리오를 scenario.json으로 저장하고 다음을 실행하세요:'
    : 'To run it to the end outside the browser, save the scenario as scenario.json and run:';
}
