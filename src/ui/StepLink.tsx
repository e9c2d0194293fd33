/** A link to a trace step: pressing it seeks to just after that step, where it is narrated. */
import { simStore } from '../store/simStore';
import { useStrings } from './i18n';

export function StepLink({ index, label }: { readonly index: number; readonly label?: string }) {
  const t = useStrings();
  return (
    <button type="button" className="step-link" onClick={() => simStore.getState().seek(index + 1)} aria-label={t.goToStep(index + 1)}>
      {label ?? `#${index + 1}`}
    </button>
  );
}

/**
 * Up to `max` step links, then "+N", in step order. With `ordered` the steps come cause first (a
 * verdict's "Caused at": a loss's election and truncation before its append), and the first `max` of
 * that order are the ones kept; they are still shown in step order, with arrows between them, so
 * the list reads as what happened first to what happened last.
 */
export function StepLinks({
  steps,
  max = 4,
  ordered = false,
}: {
  readonly steps: readonly number[];
  readonly max?: number;
  readonly ordered?: boolean;
}) {
  const unique = [...new Set(steps)];
  const shown = (ordered ? unique.slice(0, max) : [...unique].sort((a, b) => a - b).slice(0, max)).sort((a, b) => a - b);
  return (
    <span className={ordered ? 'step-links in-order' : 'step-links'}>
      {shown.map((i, k) => (
        <span key={i} className="step-link-item">
          {ordered && k > 0 && (
            <span className="step-arrow" aria-hidden="true">
              →
            </span>
          )}
          <StepLink index={i} />
        </span>
      ))}
      {unique.length > shown.length && <span className="muted"> +{unique.length - shown.length}</span>}
    </span>
  );
}
