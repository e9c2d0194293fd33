/**
 * Differential checks of the group coordinator's rules, stated from Kafka's source and checked on
 * a whole trace (its envelopes and steps), whatever the scenario:
 *
 * - a member waiting in a JoinGroup or SyncGroup is never removed for a missed heartbeat
 *   (GroupMetadataManager.expireClassicGroupMemberHeartbeat skips a member whose
 *   ClassicGroupMember.hasSatisfiedHeartbeat holds) — waiting in its latest one: a member's newer
 *   request replaces the one it waited in;
 * - every JoinGroup and SyncGroup the coordinator held is answered — at the end of a run that
 *   settled, none is still held (completeClassicGroupJoin answers every waiting member;
 *   prepareRebalance answers waiting SyncGroups REBALANCE_IN_PROGRESS; a removed member's JoinGroup
 *   gets UNKNOWN_MEMBER_ID) — unless the coordinator crashed since, which breaks the connection.
 */
import type { EnvelopeRecord } from '../../src/sim/kernel/envelope';
import type { Trace } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';

const GC = 'group-coordinator';

/** Steps at which the group coordinator's process crashed (a restart of a live process crashes it first). */
function coordinatorCrashes(trace: Trace): number[] {
  return trace.steps
    .filter((s) => s.kind === 'fault' && s.actor === GC && (s.label === 'crash' || (s.label === 'restart' && s.before !== 'down')))
    .map((s) => s.i);
}

/** The step at which each request was first answered. */
function answeredAt(trace: Trace): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of trace.envelopes)
    if (r.inReplyTo !== null && r.sentStep < (out.get(r.inReplyTo) ?? Number.POSITIVE_INFINITY)) out.set(r.inReplyTo, r.sentStep);
  return out;
}

/** Held = delivered to the coordinator, not answered before `step`, and no coordinator crash in between. */
function heldAt(
  trace: Trace,
  envelopeId: number,
  step: number,
  crashes: readonly number[],
  answered: ReadonlyMap<number, number>,
): boolean {
  const e = trace.envelopes.at(envelopeId);
  if (!e || e.fate !== 'delivered' || e.deliveredStep === null || e.deliveredStep >= step) return false;
  if (crashes.some((c) => c > (e.deliveredStep as number) && c < step)) return false;
  return (answered.get(envelopeId) ?? Number.POSITIVE_INFINITY) >= step;
}

/** "No member waiting in JoinGroup/SyncGroup is removed by session timeout." */
export function waitingMembersExpired(trace: Trace): string[] {
  const crashes = coordinatorCrashes(trace);
  const answered = answeredAt(trace);
  const problems: string[] = [];
  for (const s of trace.steps) {
    if (s.actor !== GC || s.label !== 'sessionExpired') continue;
    for (const f of s.facts as Fact[]) {
      if (f.kind !== 'note') continue;
      const m = f.text.match(/member (\S+) sent no heartbeat for session\.timeout\.ms/);
      if (!m) continue;
      const member = m[1] as string;
      // the member's latest JoinGroup/SyncGroup before the expiry: a newer one replaces the waiting
      // request (ClassicGroupMember.setAwaitingJoinFuture / setAwaitingSyncFuture), answered or not
      let latest: EnvelopeRecord | undefined;
      for (const e of trace.envelopes)
        if (
          e.to === GC &&
          (e.rpc === 'JoinGroup' || e.rpc === 'SyncGroup') &&
          e.duplicateOf === null &&
          (e.payload as { memberId?: string }).memberId === member &&
          e.fate === 'delivered' &&
          e.deliveredStep !== null &&
          e.deliveredStep < s.i &&
          (latest === undefined || e.deliveredStep > (latest.deliveredStep as number))
        )
          latest = e;
      const waiting = latest && heldAt(trace, latest.id, s.i, crashes, answered) ? latest : undefined;
      if (waiting)
        problems.push(`step ${s.i}: ${member} was removed for a missed heartbeat while its ${waiting.rpc} #${waiting.id} was held`);
    }
  }
  return problems;
}

/**
 * "Every parked JoinGroup/SyncGroup is answered": at the end of a settled run, none is held — except
 * one its client gave up on and sent again (ClassicGroup.updateMember replaces the waiting request).
 */
export function heldRequestsLeft(trace: Trace): string[] {
  if (trace.stopReason !== 'quiescent') return [];
  const crashes = coordinatorCrashes(trace);
  const answered = answeredAt(trace);
  const end = trace.steps.length;
  const lastSent = new Map<string, number>();
  for (const e of trace.envelopes) if (e.to === GC && e.fate === 'delivered') lastSent.set(`${e.from}|${e.rpc}`, e.id);
  return trace.envelopes
    .filter(
      (e) =>
        e.to === GC &&
        (e.rpc === 'JoinGroup' || e.rpc === 'SyncGroup') &&
        e.duplicateOf === null &&
        lastSent.get(`${e.from}|${e.rpc}`) === e.id &&
        heldAt(trace, e.id, end, crashes, answered),
    )
    .map((e) => `${e.rpc} #${e.id} from ${e.from} (sent at ${e.sentAt} ms) was never answered`);
}

/** Both group-coordinator rules on one trace. */
export function groupRuleProblems(trace: Trace): string[] {
  return [...waitingMembersExpired(trace), ...heldRequestsLeft(trace)];
}
