/** A link to a trace step: pressing it seeks to just after that step, where it is narrated, and shows that sentence. */
import { simStore } from '../store/simStore';
import { useStrings } from './i18n';

/**
 * Brings the narration into view when it is out of sight: on a phone the page scrolls, and a link
 * pressed in the verdict, two screens below, moved the run while the step's sentence stayed above the
 * screen. Where it is in view (a wide screen, where it sits above the columns) nothing moves. The
 * page's scroll-padding keeps it clear of the sticky playback bar.
 */
function showNarration(): void {
  const narration = document.querySelector<HTMLElement>('section.narration');
  if (!narration) return;
  const box = narration.getBoundingClientRect();
  const bar = document.querySelector<HTMLElement>('section.playback');
  const covered = bar && getComputedStyle(bar).position === 'sticky' ? bar.getBoundingClientRect().bottom : 0;
  if (box.top >= covered - 1 && box.top + Math.min(box.height, 80) <= window.innerHeight) return;
  narration.scrollIntoView({ block: 'start' });
}

export function StepLink({ index, label }: { readonly index: number; readonly label?: string }) {
  const t = useStrings();
  return (
    <button
      type="button"
      className="step-link"
      onClick={() => {
        simStore.getState().seek(index + 1);
        showNarration();
      }}
      aria-label={t.goToStep(index + 1)}
    >
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
