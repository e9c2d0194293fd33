/** "Break it" for the scenario on screen (in the header) or for a preset (in the gallery). */
import { useShare } from '../../share/shareState';
import { goalFor, type Preset, type Scenario } from '../../sim';
import { useSim } from '../../store/useSim';
import { useDump } from '../dump/dumpStore';
import { breakItStore } from './breakItStore';
import { BREAK_IT_TEXT } from './strings';

export function openBreakIt(scenario: Scenario, presetId?: string): void {
  const goal = goalFor(presetId ?? scenario.id);
  breakItStore.getState().show(scenario, {
    property: goal.property,
    kinds: goal.kinds,
    ...(goal.processes ? { processes: goal.processes } : {}),
    ...(goal.keepFaults ? { keepFaults: true } : {}),
  });
}

export function BreakItButton({ preset, onOpen }: { preset?: Preset; onOpen?: () => void }) {
  const language = useSim((s) => s.language);
  const scenario = useSim((s) => s.scenario);
  const target = preset?.scenario ?? scenario;
  // the header's button searches the run on screen: a link that could not be opened hides it, and
  // the search would be of a run the person cannot see (a preset's button, in the gallery, is its own)
  const overLinkError = useShare((s) => s.linkError !== null) && !preset;
  // and so does the dump view (Share and Embed wait there too)
  const overDump = useDump((s) => s.importing || s.busy || s.analysis !== null) && !preset;
  return (
    <button
      type="button"
      disabled={!target || overLinkError || overDump}
      title={overDump ? BREAK_IT_TEXT[language].overDump : overLinkError ? BREAK_IT_TEXT[language].overLinkError : undefined}
      data-testid={preset ? `break-it-${preset.id}` : 'open-break-it'}
      onClick={() => {
        if (!target) return;
        openBreakIt(target, preset?.id);
        onOpen?.();
      }}
    >
      {BREAK_IT_TEXT[language].open}
    </button>
  );
}
