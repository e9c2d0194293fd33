/**
 * A run the page refused for its size, stopped at its step or memory budget, or that was cancelled:
 * what the scenario asks for, how far it got, and the headless command — all as text.
 */
import { useId } from 'react';
import { loadDefault } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { downloadText } from '../export/download';
import { budgetBody, budgetTitle, headlessCommand, headlessHint } from './budgetText';

export function BudgetNotice() {
  const titleId = useId();
  const budget = useSim((s) => s.budget);
  const language = useSim((s) => s.language);
  if (!budget) return null;
  const refused = budget.kind === 'size';
  return (
    <section
      role={refused ? 'alert' : 'status'}
      className="scenario-errors budget-notice"
      aria-labelledby={titleId}
      data-testid="budget-notice"
      data-kind={budget.kind}
    >
      <h2 id={titleId}>{budgetTitle(budget, language)}</h2>
      <p>{budgetBody(budget, language)}</p>
      <p>
        {headlessHint(language)} <code>{headlessCommand(budget)}</code>
      </p>
      <button
        type="button"
        onClick={() => downloadText(`${JSON.stringify(budget.scenario, null, 2)}\n`, 'scenario.json', 'application/json')}
      >
        {language === 'ko' ? '시나리오 저장 (scenario.json)' : 'Save the scenario (scenario.json)'}
      </button>{' '}
      {refused && (
        <button type="button" className="primary" onClick={() => loadDefault()}>
          {language === 'ko' ? '기본 시나리오 열기' : 'Open the default scenario'}
        </button>
      )}
    </section>
  );
}
