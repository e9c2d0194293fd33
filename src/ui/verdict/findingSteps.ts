/**
 * The steps behind a verdict finding. The engine names them where it knows them (the appends of
 * duplicated copies, the deliveries and processing of repeated events, where a lost send() was
 * answered, where a group committed past an event, where the LSO was pinned); for the rest — a loss
 * with no step of its own — they are found here from the same facts: where the events' records
 * reached the log (in the finding's topic, for a topic row) or where their send() completed.
 * A finding with losses leads with its losses' steps in their order — each loss's cause first (the
 * election and the truncation that cut an acknowledged record, then its append) — then the rest.
 */
import type { Fact, LayerFinding, ListLike, TraceStep } from '../../sim/views';

export function findingSteps(
  finding: LayerFinding,
  steps: ListLike<TraceStep>,
  upTo: number,
  _outputTopics: readonly string[] = [],
): number[] {
  if (finding.steps.length > 0 || finding.eventIds.length === 0) {
    const losses = 'losses' in finding ? finding.losses : [];
    return [...new Set([...losses.flatMap((l) => l.steps), ...finding.steps])];
  }
  const ids = new Set(finding.eventIds);
  const topic = finding.layer === 'log' || finding.layer === 'output' ? finding.subject : null;
  const out: number[] = [];
  for (const s of steps) {
    if (s.i >= upTo) break;
    for (const raw of s.facts) {
      const f = raw as Fact;
      if (
        f.kind === 'append' &&
        f.control === null &&
        (topic === null || f.topic === topic) &&
        f.eventIds.some((e) => e !== null && ids.has(e))
      )
        out.push(s.i);
      if (f.kind === 'sendResult' && f.eventId !== null && ids.has(f.eventId) && (topic === null || f.topic === topic)) out.push(s.i);
    }
  }
  return [...new Set(out)];
}
