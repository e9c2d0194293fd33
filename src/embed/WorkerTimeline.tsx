/**
 * The run's timeline drawn from the views an engine worker sent (the lanes at the step, the run's
 * message diagram), never from a trace: the embed's, and the page's first stage's (src/shell/).
 */
import { memo, useMemo } from 'react';
import { useStore } from 'zustand';
import { Timeline } from '../ui/timeline/Timeline';
import type { EmbedStore } from './embedStore';

export const WorkerTimeline = memo(function WorkerTimeline({ store }: { store: EmbedStore }) {
  const run = useStore(store, (s) => s.run);
  const panels = useStore(store, (s) => s.panels);
  const step = useStore(store, (s) => s.step);
  const selection = useStore(store, (s) => s.selection);
  const language = useStore(store, (s) => s.language);
  const payloads = useStore(store, (s) => s.payloads);
  const faultsKo = run?.faultsKo;
  const translateFault = useMemo(
    () => (label: string) => (language === 'ko' ? (faultsKo?.get(label) ?? label) : label),
    [faultsKo, language],
  );
  if (!run || !panels) return null;
  return (
    <Timeline
      lanes={panels.lanes}
      extents={run.extents}
      msc={run.msc}
      step={step}
      now={panels.time}
      selection={selection}
      onSelect={(s) => store.getState().select(s)}
      language={language}
      translateFault={translateFault}
      payloads={payloads}
    />
  );
});
