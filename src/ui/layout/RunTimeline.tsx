/**
 * The timeline of the run the store holds (its trace and the view at the current step, which the
 * caller already has): the step, the selection (a click selects through the store), and fault labels on the message diagram in the page's language once
 * the narration module has loaded (the narration panel loads it). The page and the embed show the same one.
 */
import type { SimView, Trace } from '../../sim/views';
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { TraceTimeline } from '../timeline/TraceTimeline';
import { asRecorded, useFaultText } from '../useNarrator';

export function RunTimeline({ trace, view }: { readonly trace: Trace; readonly view: SimView }) {
  const step = useSim((s) => s.step);
  const selection = useSim((s) => s.selection);
  const language = useSim((s) => s.language);
  // fault labels in the page's language (the exported figure's words too); the narration panel loads
  // the module (the workspace's next stage): the timeline does not fetch it before the run is on screen
  const translateFault = useFaultText(trace, language, false) ?? asRecorded;
  return (
    <TraceTimeline
      trace={trace}
      view={view}
      step={step}
      selection={selection}
      onSelect={(s) => simStore.getState().select(s)}
      language={language}
      translateFault={translateFault}
    />
  );
}
