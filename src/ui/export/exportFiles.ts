/** What each export writes, from the run and the step on screen. Pure apart from the summary's replay. */
import { type PresetText, type Scenario, scenarioTexts } from '../../sim';
import { type SimView, summarize, type Trace, verdictViewAt } from '../../sim/views';
import type { TimelineLanguage } from '../timeline/timelineText';
import { buildFigure, type Figure } from './figure/figure';
import type { FigureTheme } from './figure/figurePalette';

export const TRACE_EXPORT_FORMAT = 'eos-lab-trace';

export function scenarioFile(scenario: Scenario): string {
  return `${JSON.stringify(scenario, null, 2)}\n`;
}

/** The run as JSON: the summary the CLI prints (`npm run sim -- --json`), every step and every envelope. */
export function traceFile(trace: Trace): string {
  return `${JSON.stringify({
    format: TRACE_EXPORT_FORMAT,
    version: 1,
    summary: summarize(trace),
    steps: trace.steps,
    envelopes: trace.envelopes,
  })}\n`;
}

export interface FigureFileOptions {
  readonly width: number;
  readonly theme: FigureTheme;
  readonly language: TimelineLanguage;
  /** The Korean preset texts, when loaded (the figure's title is the preset's Korean one then). */
  readonly korean: Readonly<Record<string, PresetText>> | null;
  readonly includeInternal?: boolean;
  /** An envelope fault's label in the figure's language, the page's words (useFaultText). */
  readonly translateFault?: (label: string) => string;
}

/** The figure of the run at the view's step (src/ui/export/figure): the SVG, and the PNG is made from it. */
export function timelineFigure(trace: Trace, view: SimView, options: FigureFileOptions): Figure {
  const texts = scenarioTexts(trace.scenario, options.language, options.korean);
  return buildFigure(trace, view, {
    width: options.width,
    theme: options.theme,
    language: options.language,
    title: texts.title ?? trace.scenario.id ?? 'EOS Lab',
    verdict: verdictViewAt(trace, view),
    includeInternal: options.includeInternal ?? false,
    translateFault: options.translateFault,
  });
}
