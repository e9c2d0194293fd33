/**
 * A Break it search inside a share link: the settings it ran with (property, bound, fault kinds, the
 * processes a preset's goal narrowed it to) and, once it finished, what it answered. Opening the link
 * opens the same run with the Break it panel set up the same way, showing the recorded answer; Start
 * runs the search again — it is deterministic, so it reaches the same answer.
 */
import * as v from 'valibot';
import { FAULT_KINDS, type FaultKind } from './faultSpace';
import { PROPERTY_IDS, type Property } from './property';
import type { SearchResult } from './search';

/** The bound a page search offers (faults per schedule). */
export const MAX_LINK_FAULTS = 3;

export interface LinkSearchResult {
  readonly tried: number;
  readonly collapsed: number;
  /** Every schedule of at most this many faults was tried (−1: not even the configuration alone). */
  readonly completeUpTo: number;
  readonly budgetExhausted: boolean;
  /** How many faults the shortest counterexample has; absent when none was found. */
  readonly counterexampleFaults?: number;
}

export interface LinkSearch {
  readonly property: Property;
  readonly maxFaults: number;
  readonly kinds: readonly FaultKind[];
  readonly processes?: readonly string[];
  /** The scenario's scripted faults stay in the configuration searched. */
  readonly keepFaults?: boolean;
  readonly result?: LinkSearchResult;
}

const count = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1_000_000_000));
const name = v.pipe(v.string(), v.maxLength(200));

export const LinkSearchSchema = v.strictObject({
  property: v.strictObject({
    id: v.picklist(PROPERTY_IDS),
    at: v.optional(name),
    stallMs: v.optional(count),
  }),
  maxFaults: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_LINK_FAULTS)),
  kinds: v.pipe(v.array(v.picklist(FAULT_KINDS)), v.maxLength(FAULT_KINDS.length)),
  processes: v.optional(v.pipe(v.array(name), v.maxLength(100))),
  keepFaults: v.optional(v.boolean()),
  result: v.optional(
    v.strictObject({
      tried: count,
      collapsed: count,
      completeUpTo: v.pipe(v.number(), v.integer(), v.minValue(-1), v.maxValue(MAX_LINK_FAULTS)),
      budgetExhausted: v.boolean(),
      counterexampleFaults: v.optional(v.pipe(count, v.maxValue(MAX_LINK_FAULTS))),
    }),
  ),
});

/** What a finished search puts in its link (the counterexample itself has a link of its own). */
export function linkSearchResult(result: SearchResult): LinkSearchResult {
  return {
    tried: result.tried,
    collapsed: result.collapsed,
    completeUpTo: result.completeUpTo,
    budgetExhausted: result.budgetExhausted,
    ...(result.counterexample ? { counterexampleFaults: result.counterexample.faults.length } : {}),
  };
}

/** The recorded answer as the SearchResult the report's sentences read (without the counterexample). */
export function recordedResult(search: LinkSearch): SearchResult | null {
  const r = search.result;
  if (!r) return null;
  return {
    counterexample: null,
    tried: r.tried,
    collapsed: r.collapsed,
    completeUpTo: r.completeUpTo,
    maxFaults: search.maxFaults,
    budgetExhausted: r.budgetExhausted,
  };
}
