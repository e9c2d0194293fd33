/**
 * The offsets each partition covers over the whole run (first and last step), so the lanes can be
 * laid out once per run. Only log bounds are read here; records come from the view at each step.
 */
import { stateAt } from '../../sim';
import { keyOf, logSources, type SimView, type Trace } from '../../sim/views';
import { perTrace } from '../perTrace';
import { type LaneExtent, mergeExtent } from './offsetScale';

function addBounds(into: Map<string, LaneExtent>, view: SimView): void {
  for (const src of logSources(view.actors))
    for (const log of src.logs) {
      const key = keyOf(log);
      into.set(key, mergeExtent(into.get(key), log.logStartOffset, log.logEndOffset));
    }
}

export function runExtents(trace: Trace): Map<string, LaneExtent> {
  const out = new Map<string, LaneExtent>();
  addBounds(out, stateAt(trace, 0));
  addBounds(out, stateAt(trace, trace.steps.length));
  return out;
}

/** runExtents, once per trace (the page's timeline; its landing prepares it). */
export const runExtentsOf = perTrace(runExtents);
