/** The header's "Compare A/B" button: opens the scenario on screen as A, with B the same until settings are changed. */
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { closeViewsExcept } from '../urlViews';
import { compareStore } from './compareStore';
import { compareStrings } from './compareStrings';

export function CompareButton() {
  const language = useSim((s) => s.language);
  const scenario = useSim((s) => s.scenario);
  return (
    <button
      type="button"
      className="eos-button"
      data-testid="open-compare"
      disabled={!scenario}
      onClick={() => {
        const s = simStore.getState().scenario;
        if (!s) return;
        // the comparison is the view on screen: a dump view open over the run closes
        closeViewsExcept('compare');
        compareStore.getState().openPair(s, { changes: [] }, 0);
      }}
    >
      {compareStrings(language).compareButton}
    </button>
  );
}
