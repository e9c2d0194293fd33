/** While a long run is computed in slices: a progress bar and how far it got. */
import { useStrings } from '../i18n';
import { useSim } from '../useSim';

export function RunProgress() {
  const t = useStrings();
  const status = useSim((s) => s.status);
  const progress = useSim((s) => s.progress);
  if (status !== 'running') return null;
  return (
    <section className="run-progress" aria-label={t.running} data-testid="run-progress">
      <output>
        {t.running} {t.computed(progress)}
      </output>
      <progress aria-label={t.running} />
    </section>
  );
}
