/**
 * The header's "Compare A/B" button: opens the scenario on screen as A, with B the same until settings
 * are changed. A toggle, as the header's other two-state buttons: pressed (aria-pressed, the accent
 * fill of `button[aria-pressed="true"]`) while the comparison is on screen, and pressing it again
 * closes the comparison, as its own Close does.
 */
import { useShare } from '../../share/shareState';
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { closeViewsExcept } from '../urlViews';
import { compareStore, useCompare } from './compareStore';
import { compareStrings } from './compareStrings';

export function CompareButton() {
  const language = useSim((s) => s.language);
  const scenario = useSim((s) => s.scenario);
  const open = useCompare((s) => s.open);
  // A is the run on screen: a link that could not be opened hides it, and the comparison would start
  // from a run the person cannot see
  const overLinkError = useShare((s) => s.linkError !== null) && !open;
  return (
    <button
      type="button"
      className="eos-button"
      data-testid="open-compare"
      aria-pressed={open}
      disabled={(!scenario && !open) || overLinkError}
      title={overLinkError ? compareStrings(language).overLinkError : undefined}
      onClick={() => {
        if (compareStore.getState().open) {
          compareStore.getState().close();
          return;
        }
        const s = simStore.getState().scenario;
        if (!s) return;
        // the comparison is the view on screen: a dump view open over the run closes
        closeViewsExcept('compare');
        // at the end of the runs, as the gallery's pairs open: the verdicts above the lanes are the
        // runs' last, and at 0 ms both sides were empty ("the partitions are the same at this time")
        compareStore.getState().openPair(s, { changes: [] });
      }}
    >
      {compareStrings(language).compareButton}
    </button>
  );
}
