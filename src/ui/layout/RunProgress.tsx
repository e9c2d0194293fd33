/** While a long run is computed in slices: a progress line, how far it got against the step budget, and Cancel. */
import { PAGE_BUDGETS } from '../../sim';
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { useStrings } from '../i18n';

export function RunProgress() {
  const t = useStrings();
  const status = useSim((s) => s.status);
  const progress = useSim((s) => s.progress);
  const language = useSim((s) => s.language);
  if (status !== 'running') return null;
  return (
    <section className="run-progress" aria-label={t.running} data-testid="run-progress">
      <output>
        {t.running} {t.computed(progress)}
      </output>
      <progress aria-label={t.running} max={PAGE_BUDGETS.maxSteps} value={progress} />
      <button type="button" data-testid="run-cancel" onClick={() => simStore.getState().cancel()}>
        {language === 'ko' ? '취소' : 'Cancel'}
      </button>
    </section>
  );
}
