/** What each export writes, from the run and the step on screen. Pure apart from the summary's replay. */
import type { SimView, Trace } from '../../sim/run';
import type { Scenario } from '../../sim/scenario/schema';
import { partitionRows } from '../../sim/trace/logView';
import { summarize } from '../../sim/trace/summary';
import { timelineSvg } from './timelineSvg';

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

export function timelineSvgFile(trace: Trace, view: SimView, options: { includeInternal: boolean; theme: 'light' | 'dark' }): string {
  const summary = summarize(trace, view.step, view);
  return timelineSvg({
    title: trace.scenario.title ?? trace.scenario.id ?? 'EOS Lab scenario',
    step: view.step,
    steps: trace.steps.length,
    timeMs: view.time,
    partitions: partitionRows(view.actors).filter((p) => options.includeInternal || !p.internal),
    groups: summary.groups,
    theme: options.theme,
  });
}
