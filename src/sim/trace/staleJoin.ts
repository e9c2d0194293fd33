/**
 * A JoinGroup its own client had given up on: sent, then a request timeout (REQUEST_TIMED_OUT during
 * JoinGroup, the connection closed) before the coordinator read it. Delayed in the network, it arrives
 * after the client joined again; for a static member (group.instance.id, no member id) the coordinator
 * cannot tell it from a restarted instance and replaces the client's live member
 * (GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin → ClassicGroup.replaceStaticMember).
 * The narration says so, and the group-faults property expects that client to stop.
 */
import type { EnvelopeRecord } from '../kernel/envelope';
import type { TraceStep } from '../kernel/simulation';
import type { Trace } from '../run';

export interface StaleJoin {
  /** The consumer client whose request it was. */
  readonly client: string;
  /** The step at which the client gave up on it. */
  readonly gaveUp: TraceStep;
}

/** The stale JoinGroup delivered by `envelope` at step `at`, if it is one; null otherwise. */
export function staleJoin(trace: Trace, envelope: EnvelopeRecord | null | undefined, at: number): StaleJoin | null {
  if (!envelope || envelope.rpc !== 'JoinGroup' || !envelope.from.endsWith('.consumer')) return null;
  const client = envelope.from.slice(0, -'.consumer'.length);
  for (let i = at - 1; i > envelope.sentStep; i--) {
    const s = trace.steps.at(i);
    if (!s) continue;
    for (const raw of s.facts) {
      const f = raw as unknown as { kind: string; client?: string; error?: string; during?: string };
      if (f.kind === 'clientError' && f.client === client && f.error === 'REQUEST_TIMED_OUT' && f.during === 'JoinGroup')
        return { client, gaveUp: s };
    }
  }
  return null;
}
