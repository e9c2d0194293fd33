/**
 * The embed's views, computed in the engine's worker (the PanelsProvider of engineScript.ts): once
 * per run the story marks, the message diagram, the lane extents, the texts and the fault labels in
 * Korean; at each step asked, the lanes, the logs in words, the narration and the verdict's sentences.
 * The same functions the page runs on its thread (TraceTimeline, StepNarration, the verdict line), so
 * the embed shows what the page shows.
 */
import { type RecordedTrace, scenarioTexts } from '../sim';
import { envelopeFaultText, narrate, narrateEnd, narrateStart } from '../sim/narration';
import { PRESET_TEXT_KO } from '../sim/presets/ko';
import {
  findingSentence,
  groupDigits,
  partitionRows,
  type SimView,
  storySteps,
  topicPartitionKey,
  truncationsAt,
  verdictViewAt,
} from '../sim/views';
import type { PanelsProvider } from '../store/engine/engineCore';
import { LaneCache } from '../ui/timeline/laneCache';
import { runExtents } from '../ui/timeline/laneExtents';
import { buildMscModel } from '../ui/timeline/mscModel';
import type { EmbedLanguage, EmbedPanelsAsk, EmbedRunPanels, EmbedStepPanels, EmbedTexts } from './panelTypes';

function textsOf(trace: RecordedTrace, language: EmbedLanguage): EmbedTexts {
  const t = scenarioTexts(trace.scenario, language, PRESET_TEXT_KO);
  return { title: t.title, question: t.question };
}

export function embedPanels(): PanelsProvider {
  // the lanes of the last run asked about: unchanged logs keep their lane from step to step
  let lanesOf: { trace: RecordedTrace; cache: LaneCache } | null = null;
  return {
    run(trace): EmbedRunPanels {
      const msc = buildMscModel(trace);
      const faultsKo = new Map<string, string>();
      for (const e of msc.envelopes) if (e.fault && !faultsKo.has(e.fault)) faultsKo.set(e.fault, envelopeFaultText(trace, e.fault, 'ko'));
      return {
        scenario: trace.scenario,
        texts: { en: textsOf(trace, 'en'), ko: textsOf(trace, 'ko') },
        story: storySteps(trace),
        msc,
        extents: runExtents(trace),
        faultsKo,
      };
    },
    at(trace, view: SimView, options): EmbedStepPanels {
      const language: EmbedLanguage = (options as EmbedPanelsAsk | null)?.language === 'ko' ? 'ko' : 'en';
      if (lanesOf?.trace !== trace) lanesOf = { trace, cache: new LaneCache() };
      const step = view.step;
      const current = step > 0 ? trace.steps.at(step - 1) : undefined;
      const verdict = verdictViewAt(trace, view);
      const title = textsOf(trace, language).title ?? trace.scenario.id ?? '';
      return {
        step,
        time: view.time,
        language,
        lanes: lanesOf.cache.lanes(view.actors, truncationsAt(trace, step)),
        logs: partitionRows(view.actors)
          .filter((p) => !p.internal)
          .map((p) => ({
            key: topicPartitionKey(p.topic, p.partition),
            records: p.records.length,
            highWatermark: p.highWatermark,
            lastStableOffset: p.lastStableOffset,
            logEndOffset: p.logEndOffset,
          })),
        meta: current ? `#${step} · ${groupDigits(current.t)} ms · ${current.actor}` : '',
        narration: step === 0 ? narrateStart(trace, language, title) : narrate(trace, step - 1, language),
        end: step > 0 && step >= trace.steps.length ? narrateEnd(trace, language) : null,
        verdict: verdict.layers.map((f) => findingSentence(f, verdict, language)),
      };
    },
  };
}
