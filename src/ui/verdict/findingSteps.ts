/**
 * The steps behind a verdict finding. The engine names them for most layers; for committed output
 * and losses it names the events only, so the steps are found here from the same facts: where the
 * event's copies were appended to an output topic; for a lost event, where its send() completed or
 * failed (what the application was told) and where its record reached the log.
 */
import type { LayerFinding } from '../../sim/checks/verdict';
import type { TraceStep } from '../../sim/kernel/simulation';
import type { Fact } from '../../sim/trace/facts';

export function findingSteps(finding: LayerFinding, steps: readonly TraceStep[], upTo: number, outputTopics: readonly string[]): number[] {
  if (finding.steps.length > 0 || finding.eventIds.length === 0) return [...finding.steps];
  const ids = new Set(finding.eventIds);
  const outputs = new Set(outputTopics);
  const out: number[] = [];
  for (const s of steps) {
    if (s.i >= upTo) break;
    for (const raw of s.facts) {
      const f = raw as Fact;
      if (
        finding.layer === 'output' &&
        f.kind === 'append' &&
        f.control === null &&
        outputs.has(f.topic) &&
        f.eventIds.some((e) => e !== null && ids.has(e))
      )
        out.push(s.i);
      if (finding.layer === 'loss') {
        if (f.kind === 'sendResult' && f.eventId !== null && ids.has(f.eventId)) out.push(s.i);
        if (f.kind === 'append' && f.control === null && !outputs.has(f.topic) && f.eventIds.some((e) => e !== null && ids.has(e)))
          out.push(s.i);
      }
    }
  }
  return [...new Set(out)];
}
