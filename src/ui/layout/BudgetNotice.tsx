/** The page's budget notice (BudgetNoticeView.tsx) over its store. */
import { loadDefault } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { BudgetNoticeView } from './BudgetNoticeView';

export function BudgetNotice() {
  const budget = useSim((s) => s.budget);
  const language = useSim((s) => s.language);
  return <BudgetNoticeView budget={budget} language={language} openDefault={loadDefault} />;
}
