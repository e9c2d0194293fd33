/**
 * What the embed's panels read, as the engine's worker sends it (embedPanels.ts computes it there):
 * plain, structured-clone-able data — the main thread never holds the trace.
 */
import type { Scenario } from '../sim';
import type { LaneModel } from '../ui/timeline/laneModel';
import type { MscModel } from '../ui/timeline/mscModel';
import type { LaneExtent } from '../ui/timeline/offsetScale';

export type EmbedLanguage = 'en' | 'ko';

/** The title and question to show, per language (a preset's Korean words when unedited). */
export interface EmbedTexts {
  readonly title: string | undefined;
  readonly question: string | undefined;
}

/** Computed once per run, sent with `done`. */
export interface EmbedRunPanels {
  /** The scenario as the engine resolved it (the "Open in EOS Lab" link, a saved scenario.json). */
  readonly scenario: Scenario;
  readonly texts: Readonly<Record<EmbedLanguage, EmbedTexts>>;
  /** Which steps tell the run's story (storySteps): playback passes over the others. */
  readonly story: Uint8Array;
  /** The message diagram (buildMscModel: its envelopes carry no payloads; the tooltip asks for one at a time). */
  readonly msc: MscModel;
  /** The offsets each partition covers over the run (runExtents). */
  readonly extents: ReadonlyMap<string, LaneExtent>;
  /** Each envelope fault label in Korean (envelopeFaultText). */
  readonly faultsKo: ReadonlyMap<string, string>;
}

/** One partition in words (user topics only). */
export interface LogLine {
  readonly key: string;
  readonly records: number;
  readonly highWatermark: number;
  readonly lastStableOffset: number;
  readonly logEndOffset: number;
}

/** After one step, in the language asked. */
export interface EmbedStepPanels {
  readonly step: number;
  readonly time: number;
  readonly language: EmbedLanguage;
  readonly lanes: readonly LaneModel[];
  readonly logs: readonly LogLine[];
  /** "#12 · 340 ms · producer-1" for the step on screen ('' at the start). */
  readonly meta: string;
  /** The app's narration of the step (its start sentence at step 0). */
  readonly narration: string;
  /** The run's end sentence, at its last step. */
  readonly end: string | null;
  /** The verdict so far, one sentence per layer. */
  readonly verdict: readonly string[];
}

export interface EmbedPanelsAsk {
  readonly language: EmbedLanguage;
}
