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

/** Up to `max` step links, then "+N": in step order, or in the order given when `ordered` (the cause first). */
export function StepLinks({
  steps,
  max = 4,
  ordered = false,
}: {
  readonly steps: readonly number[];
  readonly max?: number;
  readonly ordered?: boolean;
}) {
  const unique = ordered ? [...new Set(steps)] : [...new Set(steps)].sort((a, b) => a - b);
  const shown = unique.slice(0, max);
  return (
    <span className="step-links">
      {shown.map((i) => (
        <StepLink key={i} index={i} />
      ))}
      {unique.length > shown.length && <span className="muted"> +{unique.length - shown.length}</span>}
    </span>
  );
}
