/**
 * Runs a scenario edit against the store's current scenario and step, and forks the run when it
 * applies. The outcome (note or refusal) goes back to the caller so it can say what happened.
 */
import type { At, EditOutcome, Scenario } from '../../sim';
import { simStore } from '../../store/simStore';

export type ScenarioEdit = (scenario: Scenario, at: At) => EditOutcome;

/** What a component reports after an injection: the note that was applied, or why not. */
export type InjectionReport = (outcome: EditOutcome, step: number) => void;

export function applyEdit(edit: ScenarioEdit): EditOutcome | null {
  const { scenario, trace, step, view } = simStore.getState();
  if (!scenario || !trace || !view) return null;
  const outcome = edit(scenario, { trace, step, view });
  // the outcome was computed from this very scenario, so the fork applies it as it is
  if (outcome.ok) simStore.getState().fork(() => outcome.scenario);
  return outcome;
}
