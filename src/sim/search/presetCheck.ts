/**
 * The per-preset check (tests and `npm run bench`): exhaustive k = 1 from the preset's configuration,
 * in its goal's fault class, against the outcome its expectedVerdict implies (presetGoals.ts).
 */
import type { Preset } from '../presets';
import { type ExpectedOutcome, expectedOutcome, goalFor, spaceOf } from './presetGoals';
import { prepareBase } from './runner';
import { type SearchResult, searchAll } from './search';

export interface PresetCheck {
  readonly id: string;
  readonly expected: ExpectedOutcome;
  readonly result: SearchResult;
  readonly pass: boolean;
  /** Why it failed, in words. */
  readonly why: string;
}

export function checkPreset(preset: Preset, maxFaults = 1): PresetCheck {
  const goal = goalFor(preset.id);
  const expected = expectedOutcome(preset, goal);
  const base = prepareBase(preset.scenario, { keepFaults: goal.keepFaults === true });
  const result = searchAll(base, { property: goal.property, maxFaults, space: spaceOf(goal) });
  const ce = result.counterexample;
  let why = '';
  if (expected.kind === 'holds') {
    if (ce) why = `expected no counterexample, found ${ce.faults.length} fault(s): ${ce.violation.sentence}`;
    else if (result.completeUpTo < maxFaults) why = `incomplete: every schedule up to ${result.completeUpTo} fault(s) only`;
  } else if (!ce) why = `expected ${expected.layer} ${expected.subject} ${expected.status}, found no counterexample`;
  else if (ce.violation.layer !== expected.layer || ce.violation.subject !== expected.subject || ce.violation.status !== expected.status)
    why = `expected ${expected.layer} ${expected.subject} ${expected.status}, found ${ce.violation.layer} ${ce.violation.subject} ${ce.violation.status}`;
  return { id: preset.id, expected, result, pass: why === '', why };
}
