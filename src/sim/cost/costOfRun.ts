/** computeCost fed from a finished run: its steps and envelopes, and the logs of its summary, up to the summary's step. */
import type { Trace } from '../run';
import { envelopeRows } from '../trace/envelopeRows';
import { eventlessTopicsOf, type TraceSummary } from '../trace/summary';
import { computeCost, type RunCost } from './cost';

export function costOfRun(trace: Trace, summary: TraceSummary): RunCost {
  const steps = trace.steps.slice(0, summary.atStep);
  return computeCost({
    steps,
    envelopes: [...envelopeRows(trace)].filter((e) => e.sentAt <= summary.time),
    partitions: summary.partitions,
    ignoredTopics: [...eventlessTopicsOf(trace)],
    // the window the rate is over: the run's virtual time, as the page's "whole run" line states it
    runMs: summary.time,
  });
}
