/**
 * A run the page refused for its size, stopped at its step or memory budget, or that was cancelled:
 * what the scenario asks for, how far it got, and the headless command — all as text. Reads no store:
 * the page (BudgetNotice.tsx) and the embed pass what they hold.
 */
import { useId } from 'react';
import type { PageBudgetStop } from '../../store/simStore';
import { downloadText } from '../export/download';
import { budgetBody, budgetTitle, headlessCommand, headlessHint } from './budgetText';

export interface BudgetNoticeViewProps {
  readonly budget: PageBudgetStop | null;
  readonly language: 'en' | 'ko';
  /**
   * Opens the default scenario (offered when the run was refused); null while it cannot yet (the
   * page's first stage, src/shell/: the button is disabled, `waiting` its title).
   */
  readonly openDefault: (() => void) | null;
  readonly waiting?: string;
}

export function BudgetNoticeView({ budget, language, openDefault, waiting }: BudgetNoticeViewProps) {
  const titleId = useId();
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
        <button
          type="button"
          className="primary"
          onClick={openDefault ?? undefined}
          disabled={openDefault === null}
          title={openDefault === null ? waiting : undefined}
        >
          {language === 'ko' ? '기본 시나리오 열기' : 'Open the default scenario'}
        </button>
      )}
    </section>
  );
}
