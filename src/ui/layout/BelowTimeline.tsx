/**
 * What the timeline column shows under the timeline, all collapsed at first: the Java for the
 * scenario's clients, how the model simplifies Kafka, and the notes on exactly-once. Below the fold,
 * so a chunk of its own that the workspace's last stage loads (stages.ts).
 */
import type { Trace } from '../../sim/views';
import type { Language } from '../../store/simStore';
import { CodePanel } from '../code/CodePanel';
import { EosNotes } from '../notes/EosNotes';
import { ModelNotes } from './ModelNotes';

export function BelowTimeline({ trace, language }: { readonly trace: Trace; readonly language: Language }) {
  return (
    <>
      <CodePanel scenario={trace.scenario} language={language} />
      <ModelNotes trace={trace} />
      <EosNotes language={language} />
    </>
  );
}
