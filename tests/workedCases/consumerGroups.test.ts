/**
 * Worked cases, consumer groups (the classic protocol): expected outcomes written from Kafka's source
 * (trunk of October 2024, the 4.0 line) before the scenarios were run.
 *
 * Common to the scenarios (tests/workedCases/scenarios/group-*.json): topic `in` with 2 partitions; src
 * writes a<i> to in-0 and b<i> to in-1 (one pair a second from 8000 ms unless said otherwise); c1
 * starts at 0 ms and c2 at 5 ms in group g, auto.offset.reset=earliest.
 *
 * The model names a member `<client>-<n>` (a static one `<group.instance.id>-<n>`), n counting the
 * group's new members; Kafka's ids end in a UUID. RangeAssignor sorts the members
 * (AbstractPartitionAssignor.MemberInfo.compareTo: static members first, by group.instance.id, then
 * by member id), so with these ids c1 gets in-0 and c2 in-1.
 */
import { describe, expect, it } from 'vitest';
import type { Fact } from '../../src/sim/trace/facts';
import { run, type WorkedRun } from './helpers';

const generations = (r: WorkedRun) => r.facts('rebalance').map((f) => `${f.generationId}:${[...f.members].sort().join(',')}`);
const timeOfGeneration = (r: WorkedRun, generationId: number) =>
  r.timeOf(r.stepOf((f) => f.kind === 'rebalance' && f.generationId === generationId));
const received = (r: WorkedRun, consumer: string) => r.received(consumer).map((x) => `${x.partition}@${x.offset}`);
const processedBy = (r: WorkedRun, app: string) =>
  r
    .facts('processed')
    .filter((f) => f.app === app)
    .map((f) => `${f.partition}@${f.offset}`);
const from = (r: WorkedRun, rpc: string, client: string) => r.rpcs(rpc).filter((e) => e.from.split('.')[0] === client);
const committed = (r: WorkedRun) =>
  r.facts('offsetsCommitted').map((f) => `${f.generationId}:${f.offsets.map((o) => `${o.partition}=${o.offset}`).join(',')}`);

describe('worked cases: consumer groups', () => {
  /*
   * group-paused-member-commit. At-least-once (process, then commitSync), max.poll.records=1,
   * session.timeout.ms=6000, heartbeat.interval.ms=2000. c1 freezes for 10 s right after processing
   * a1 (in-0@1), before its commitSync.
   * - Initial rebalance (GroupMetadataManager.prepareRebalance from Empty → tryCompleteInitialRebalance
   *   ElseSchedule): c2 joins during group.initial.rebalance.delay.ms (addMemberThenRebalanceOrCompleteJoin
   *   sets newMemberAdded), so the delay is extended once by 3000: generation 1 {c1, c2} at ~6000.
   * - c1's session at the coordinator was last rescheduled by its commit of a0's offset (~8000;
   *   OffsetMetadataManager.commitOffset reschedules the heartbeat) or a heartbeat just after;
   *   expireClassicGroupMemberHeartbeat removes it ~6 s later → PreparingRebalance; c2 is told by its
   *   next heartbeat (REBALANCE_IN_PROGRESS), rejoins, and the join completes at once
   *   (maybeCompleteJoinElseSchedule: all members joined): generation 2 {c2}, well before c1 resumes.
   * - c2 (eager: onJoinPrepare gave up everything) fetches the committed offsets: in-0 → 1, so it
   *   processes a1 again, then a2, a3.
   * - c1 resumes at ~19000 and commits in-0=2 with generation 1 and its old member id:
   *   ClassicGroup.validateOffsetCommit → validateMember: !hasMember → UNKNOWN_MEMBER_ID (not
   *   ILLEGAL_GENERATION: the member is gone, not stale). ConsumerCoordinator.OffsetCommitResponseHandler:
   *   resetStateOnResponseError (member id reset) and CommitFailedException — the loop catches it.
   * - Its next poll() joins as a new member (MEMBER_ID_REQUIRED first): generation 3 {c1', c2}; c1'
   *   gets in-0 back, by then committed at 4 by c2: nothing more for c1.
   * So a1 is processed twice (by c1, then c2); in-0's committed offsets never go back.
   */
  it('group-paused-member-commit: the removed member’s commitSync is UNKNOWN_MEMBER_ID, a CommitFailedException; the record it processed is processed again', () => {
    const r = run('group-paused-member-commit.json');
    expect(generations(r)).toEqual(['1:c1-0,c2-1', '2:c2-1', '3:c1-2,c2-1']);
    const gen1 = timeOfGeneration(r, 1);
    expect(gen1).toBeGreaterThanOrEqual(6000);
    expect(gen1).toBeLessThan(6100);
    const gen2 = timeOfGeneration(r, 2);
    // removed ~6 s after its last commit / heartbeat (~8000–9000), c2 told by its next heartbeat (2 s)
    expect(gen2).toBeGreaterThan(14000);
    expect(gen2).toBeLessThan(17200);
    expect(timeOfGeneration(r, 3)).toBeGreaterThan(19000);
    const c1Commits = from(r, 'OffsetCommit', 'c1');
    const refused = r
      .rpcs('OffsetCommitResponse')
      .filter((e) => e.to.split('.')[0] === 'c1')
      .map((e) => JSON.stringify(e.payload));
    expect(refused.some((p) => p.includes('UNKNOWN_MEMBER_ID'))).toBe(true);
    expect(refused.some((p) => p.includes('ILLEGAL_GENERATION'))).toBe(false);
    expect(c1Commits.length).toBeGreaterThanOrEqual(2);
    expect(r.errors('c1')).toContain('UNKNOWN_MEMBER_ID');
    expect(r.errors('c1')).toContain('CommitFailedException');
    expect(r.errors('c1')).not.toContain('ILLEGAL_GENERATION');
    expect(processedBy(r, 'c1')).toEqual(['0@0', '0@1']);
    expect(processedBy(r, 'c2').filter((x) => x.startsWith('0@'))).toEqual(['0@1', '0@2', '0@3']);
    expect(processedBy(r, 'c2').filter((x) => x.startsWith('1@'))).toEqual(['1@0', '1@1', '1@2', '1@3']);
    const in0 = r
      .facts('offsetsCommitted')
      .flatMap((f) => f.offsets.filter((o) => o.partition === 0).map((o) => `${f.generationId}:${o.offset}`));
    expect(in0).toEqual(['1:1', '2:2', '2:3', '2:4']);
  });

  /*
   * group-poll-timeout-dynamic. c1: max.poll.interval.ms=6000 (also its rebalance timeout),
   * session.timeout.ms=15000, heartbeat.interval.ms=3000, 50 ms per record; c2 the same session and
   * heartbeat, max.poll.interval.ms 300000. c1 freezes for 8.01 s right after poll() returned a2 (the
   * model's afterPoll point names the previous batch's last record: `where` offset 1 is the poll after
   * a1's).
   * - Generation 1 {c1, c2} at ~6000 (as above: the group's rebalance timeout is then max(6000, 300000)).
   * - On resume the heartbeat thread (AbstractCoordinator.HeartbeatThread.run) finds the session timer
   *   fine (last answer ~3–6 s before the pause + 8 s < 15 s) and the poll timer expired (8 s > 6 s):
   *   handlePollTimeoutExpiry → maybeLeaveGroup("consumer poll timeout has expired."): a dynamic
   *   member sends LeaveGroup — and no Heartbeat, though one fell due during the pause too: the poll
   *   timer is checked before shouldHeartbeat on the same pass, and the member is UNJOINED after it —, then resetGenerationOnLeaveGroup (UNJOINED, member id cleared). The
   *   application thread is still processing a2 (50 ms).
   * - Its commitSync(in-0=3): ConsumerCoordinator.sendOffsetCommitRequest finds generationIfStable()
   *   null and no rebalance in progress (UNJOINED) → CommitFailedException("… not part of an active
   *   group …") without a request.
   * - The coordinator removes c1 at the LeaveGroup (classicGroupLeaveToClassicGroup →
   *   PreparingRebalance). c1's next poll() joins as a new member (MEMBER_ID_REQUIRED, then c1-2)
   *   within ~60 ms; c2 is told at its next heartbeat (REBALANCE_IN_PROGRESS) and rejoins; the join
   *   completes when both have joined: generation 2 {c1-2, c2} — no generation with c2 alone.
   * - c1-2 gets in-0 again and fetches the committed offset 2: a2 is processed twice, by c1 both
   *   times; c2 processes nothing twice.
   */
  it('group-poll-timeout-dynamic: the poll timeout sends LeaveGroup; commitSync fails without a request; the rejoined member processes the record again', () => {
    const r = run('group-poll-timeout-dynamic.json');
    expect(generations(r)).toEqual(['1:c1-0,c2-1', '2:c1-2,c2-1']);
    const leaves = from(r, 'LeaveGroup', 'c1');
    expect(leaves.length).toBe(1);
    const leftAt = leaves[0]?.sentAt ?? Number.NaN;
    expect(from(r, 'Heartbeat', 'c1').filter((e) => e.sentAt >= 10004 && e.sentAt <= leftAt)).toEqual([]);
    // the pause: 10004 → 18014 (8010 ms: c2's heartbeat, every 3000 ms from its join answer, falls at
    // 18004, before c1's LeaveGroup as the case means — with 8000 ms the two met at 18004, the
    // heartbeat after the LeaveGroup, and c2's rejoin completed a generation of c2 alone before c1's
    // first JoinGroup came); the heartbeat thread sees the poll timer at once
    expect(leftAt).toBeGreaterThanOrEqual(18000);
    expect(leftAt).toBeLessThan(18200);
    // no OffsetCommit from c1 between the pause and its rejoin: commitSync failed locally
    const gen2 = timeOfGeneration(r, 2);
    expect(from(r, 'OffsetCommit', 'c1').filter((e) => e.sentAt > 10000 && e.sentAt < gen2)).toEqual([]);
    expect(r.errors('c1')).toContain('CommitFailedException');
    expect(r.errors('c1')).not.toContain('UNKNOWN_MEMBER_ID');
    expect(r.errors('c1')).not.toContain('ILLEGAL_GENERATION');
    expect(processedBy(r, 'c1')).toEqual(['0@0', '0@1', '0@2', '0@2', '0@3']);
    expect(processedBy(r, 'c2')).toEqual(['1@0', '1@1', '1@2', '1@3']);
    expect(r.errors('c2')).toContain('REBALANCE_IN_PROGRESS');
  });

  /*
   * group-poll-timeout-static: the same with group.instance.id=i1 for c1.
   * - AbstractCoordinator.maybeLeaveGroup: a static member sends no LeaveGroup ("the membership
   *   expiration is only controlled by session timeout") but still resetGenerationOnLeaveGroup; its
   *   commitSync fails locally with CommitFailedException as above.
   * - Its next poll() sends JoinGroup with no member id and i1: GroupMetadataManager
   *   classicGroupJoinNewStaticMember → updateStaticMemberThenRebalanceOrCompleteJoin, group Stable and
   *   the protocol unchanged → replaceStaticMember, no rebalance: generation 1 stays, the new member id
   *   i1-2 takes in-0 (c2 hears nothing: no REBALANCE_IN_PROGRESS).
   * - onJoinComplete → OffsetFetch: in-0 committed 2, so c1 processes a2 again.
   */
  it('group-poll-timeout-static: no LeaveGroup; the rejoin replaces the member without a rebalance and re-reads from the committed offset', () => {
    const r = run('group-poll-timeout-static.json');
    expect(generations(r)).toEqual(['1:c2-1,i1-0']);
    expect(from(r, 'LeaveGroup', 'c1')).toEqual([]);
    // nor a heartbeat between the pause and the rejoin (the poll timeout first, then UNJOINED)
    const rejoin = from(r, 'JoinGroup', 'c1').find((e) => e.sentAt > 10004)?.sentAt ?? Number.NaN;
    expect(rejoin).toBeGreaterThan(18000);
    expect(from(r, 'Heartbeat', 'c1').filter((e) => e.sentAt >= 10004 && e.sentAt <= rejoin)).toEqual([]);
    const replaced = r.facts('staticMemberReplaced');
    expect(replaced.map((f) => `${f.oldMemberId}→${f.newMemberId}@${f.generationId} ${f.state}`)).toEqual(['i1-0→i1-2@1 Stable']);
    expect(r.errors('c1')).toContain('CommitFailedException');
    expect(r.errors('c2')).not.toContain('REBALANCE_IN_PROGRESS');
    expect(processedBy(r, 'c1')).toEqual(['0@0', '0@1', '0@2', '0@2', '0@3']);
    expect(processedBy(r, 'c2')).toEqual(['1@0', '1@1', '1@2', '1@3']);
  });

  /*
   * group-static-restart: c1 (group.instance.id=i1, session.timeout.ms=10000) crashes right after
   * processing a1, before its commitSync, and restarts 2 s later.
   * - A crash sends nothing. The restarted instance's JoinGroup (no member id, i1) arrives well
   *   within the session: updateStaticMemberThenRebalanceOrCompleteJoin in Stable → no rebalance,
   *   generation 1 kept, new member id i1-2, in-0 kept (its SyncGroup in Stable returns the stored
   *   assignment). The old id's heartbeat expiry fires without effect.
   * - OffsetFetch → in-0 = 1: a1 processed twice, by c1. c2 sees no error at all.
   */
  it('group-static-restart: a restart within the session keeps the generation and the partition, and reprocesses from the committed offset', () => {
    const r = run('group-static-restart.json');
    expect(generations(r)).toEqual(['1:c2-1,i1-0']);
    expect(r.facts('staticMemberReplaced').map((f) => `${f.oldMemberId}→${f.newMemberId}@${f.generationId} ${f.state}`)).toEqual([
      'i1-0→i1-2@1 Stable',
    ]);
    expect(processedBy(r, 'c1')).toEqual(['0@0', '0@1', '0@1', '0@2', '0@3']);
    expect(processedBy(r, 'c2')).toEqual(['1@0', '1@1', '1@2', '1@3']);
    expect(r.errors('c2')).toEqual([]);
  });

  /*
   * group-static-duplicate-instance: c3 starts at 13000 with the same group.instance.id i1 as c1,
   * which is alive and idle (it processed and committed a0–a3 by ~11000). a4 goes to in-0 at 16000.
   * - c3's JoinGroup (no member id, i1) replaces c1's member in Stable without a rebalance
   *   (replaceStaticMember); c3 takes in-0 and fetches the committed offset 4.
   * - c1's next heartbeat (~15000) carries its old member id and i1: validateMember →
   *   FENCED_INSTANCE_ID. The heartbeat listener fails the heartbeat thread; the next poll() throws
   *   FencedInstanceIdException (fatal, AbstractCoordinator.pollHeartbeat): the application stops
   *   and c1 sends nothing more. a4 goes to c3 only. (The model records the error as the fatal
   *   FENCED_INSTANCE_ID of the Heartbeat and notes the exception poll() throws.)
   */
  it('group-static-duplicate-instance: the second instance takes the place silently; the first gets FENCED_INSTANCE_ID and stops', () => {
    const r = run('group-static-duplicate-instance.json');
    expect(generations(r)).toEqual(['1:c2-1,i1-0']);
    expect(r.facts('staticMemberReplaced').map((f) => `${f.oldMemberId}→${f.newMemberId}@${f.generationId} ${f.state}`)).toEqual([
      'i1-0→i1-2@1 Stable',
    ]);
    expect(
      r
        .facts('clientError')
        .filter((f) => f.client === 'c1')
        .map((f) => `${f.error} ${f.during} ${f.fatal}`),
    ).toEqual(['FENCED_INSTANCE_ID Heartbeat true']);
    const fenced = r.timeOf(r.stepOf((f: Fact) => f.kind === 'clientError' && f.client === 'c1' && f.error === 'FENCED_INSTANCE_ID'));
    expect(fenced).toBeGreaterThan(13000);
    expect(fenced).toBeLessThan(16100);
    expect(r.facts('note').some((f) => f.actor === 'c1.app' && f.text.includes('FencedInstanceIdException'))).toBe(true);
    expect(r.trace.envelopes.filter((e) => e.from.split('.')[0] === 'c1' && e.sentAt > fenced)).toEqual([]);
    expect(received(r, 'c1')).toEqual(['0@0', '0@1', '0@2', '0@3']);
    expect(received(r, 'c3')).toEqual(['0@4']);
    expect(r.errors('c2')).toEqual([]);
  });

  /*
   * group-member-joins-stable: auto-commit consumers (auto.commit.interval.ms 5000,
   * session.timeout.ms 45000, heartbeat.interval.ms 3000); c1 alone from 0, c2 from 10000. a0/b0 at
   * 4000, a1/b1 at 10500, a2/b2 at 14000.
   * - c1 alone: the initial delay is not extended (no newMemberAdded): generation 1 {c1} at ~3000.
   * - c1 auto-commits in-0=1, in-1=1 at its first poll() after ~8000 (the timer reset at
   *   onJoinComplete); a1, b1 consumed at ~10500, not yet auto-committed.
   * - c2's JoinGroup (with its member id, after MEMBER_ID_REQUIRED) at ~10000 finds the group Stable:
   *   prepareRebalance → not Empty, so no group.initial.rebalance.delay.ms: maybeCompleteJoinElseSchedule
   *   waits for c1 (up to the rebalance timeout). c1 is told by its heartbeat at ~12000
   *   (REBALANCE_IN_PROGRESS, 3 s cadence from its JoinGroup answer at ~3000); in poll() onJoinPrepare
   *   commits in-0=2, in-1=2 with generation 1 — accepted while the group is PreparingRebalance — and
   *   only then revokes and sends JoinGroup; the join completes at once: generation 2 {c1, c2} at
   *   ~12000 (not c2's join + 3000).
   * - c2 gets in-1 and fetches 2: nothing is received twice; a2 goes to c1, b2 to c2.
   */
  it('group-member-joins-stable: the rebalance completes at the old member’s next heartbeat, after onJoinPrepare commits what it consumed', () => {
    const r = run('group-member-joins-stable.json');
    expect(generations(r)).toEqual(['1:c1-0', '2:c1-0,c2-1']);
    const gen1 = timeOfGeneration(r, 1);
    expect(gen1).toBeGreaterThanOrEqual(3000);
    expect(gen1).toBeLessThan(3100);
    const gen2 = timeOfGeneration(r, 2);
    expect(gen2).toBeGreaterThanOrEqual(12000);
    expect(gen2).toBeLessThan(12100);
    expect(committed(r).slice(0, 2)).toEqual(['1:0=1,1=1', '1:0=2,1=2']);
    const joinPrepareCommit = r.timeOf(r.stepOf((f) => f.kind === 'offsetsCommitted' && f.offsets.some((o) => o.offset === 2)));
    expect(joinPrepareCommit).toBeGreaterThanOrEqual(12000);
    expect(joinPrepareCommit).toBeLessThanOrEqual(gen2);
    expect(received(r, 'c1')).toEqual(['0@0', '1@0', '0@1', '1@1', '0@2']);
    expect(received(r, 'c2')).toEqual(['1@2']);
    expect(r.errors('c1')).toContain('REBALANCE_IN_PROGRESS');
  });

  /*
   * group-dropped-heartbeat: c1 and c2 (session.timeout.ms 10000, heartbeat.interval.ms 3000), idle
   * but for b0/b1 on c2's in-1. c1's second Heartbeat (T ≈ 12000) is dropped: its connection to the
   * coordinator stalls (nothing behind it arrives; the next heartbeat at T+3000 waits on it too —
   * the classic HeartbeatThread sends on its timer, Heartbeat.hasInflight has no caller).
   * (a) request.timeout.ms=5000: NetworkClient.handleTimedOutRequests closes the connection at
   *   T+5000; both heartbeats fail (DisconnectException → markCoordinatorUnknown, failHeartbeat twice:
   *   the timer at retryBackoff.backoff(1) = 200 ms), and the next heartbeat goes out ~T+5200 — before
   *   the coordinator's expiry at T−3000+10000 = T+7000 (expireClassicGroupMemberHeartbeat): no
   *   rebalance, one generation.
   * (b) request.timeout.ms=30000 (the default), above the session: nothing closes the connection
   *   before the coordinator removes c1 at ~T+7000 (the member's own session timer, reset by the
   *   answer 1 ms after the coordinator's last reschedule, expires ~1 ms later and is seen at the
   *   heartbeat thread's next wake-up, ≤ retry.backoff.ms: markCoordinatorUnknown, disconnect). Its
   *   next heartbeat is UNKNOWN_MEMBER_ID; it rejoins as a new member at once and the join completes
   *   when c2, told by its next heartbeat, rejoins: generation 2 {c1', c2}, c1' keeping in-0.
   */
  it('group-dropped-heartbeat: a request timeout below the session saves the member; above it, one lost heartbeat removes it', () => {
    const below = run('group-dropped-heartbeat.json');
    const dropped = below.rpcs('Heartbeat').filter((e) => e.from.split('.')[0] === 'c1' && e.fate === 'dropped');
    expect(dropped.length).toBe(1);
    const t = dropped[0]?.sentAt ?? Number.NaN;
    expect(t).toBeGreaterThan(11900);
    expect(t).toBeLessThan(12100);
    expect(generations(below)).toEqual(['1:c1-0,c2-1']);
    const answered = (r: WorkedRun) =>
      r
        .rpcs('HeartbeatResponse')
        .filter((e) => e.to.split('.')[0] === 'c1' && e.sentAt > t)
        .map((e) => e.sentAt);
    const firstAnswer = answered(below)[0] ?? Number.NaN;
    expect(firstAnswer).toBeGreaterThan(t + 5000);
    expect(firstAnswer).toBeLessThan(t + 5400);
    expect(below.errors('c1')).not.toContain('UNKNOWN_MEMBER_ID');

    const above = run('group-dropped-heartbeat.json', (sc) => ({
      ...sc,
      clients: sc.clients.map((c) => (c.type === 'consumer' ? { ...c, config: { ...c.config, 'request.timeout.ms': 30000 } } : c)),
    }));
    expect(generations(above)).toEqual(['1:c1-0,c2-1', '2:c1-2,c2-1']);
    const removed = above.timeOf(
      above.stepOf((f) => f.kind === 'note' && f.actor === 'group-coordinator' && f.text.includes('c1-0 sent no heartbeat')),
    );
    expect(removed).toBeGreaterThanOrEqual(t + 6900);
    expect(removed).toBeLessThanOrEqual(t + 7100);
    expect(above.errors('c1')).toContain('UNKNOWN_MEMBER_ID');
    const gen2 = timeOfGeneration(above, 2);
    expect(gen2).toBeGreaterThan(removed);
    expect(gen2).toBeLessThan(removed + 3200);
  });

  /*
   * group-txn-commit-while-preparing: exactly-once members (read_committed, max.poll.records=2, 3000 ms
   * per record, output to `out`); c1 alone from 0, c2 from 10000; a0, b0, a1, b1 written at ~8000,
   * each in its own Produce.
   * - Generation 1 {c1} at ~3000. c1's fetch is answered at the first append (fetch.min.bytes 1), so
   *   its first poll() returns a0 alone (written in first here as an assumption of two records; the
   *   rule below does not depend on it): a transaction until ~11000, then a1 and b0, to ~17000.
   * - c2's JoinGroup (~10000) puts the group in PreparingRebalance, waiting for c1 (rebalance timeout
   *   300 s). c1's heartbeat (~12000) gets REBALANCE_IN_PROGRESS: requestRejoin, but c1 is outside
   *   poll(), processing.
   * - Each sendOffsetsToTransaction carries consumer.groupMetadata() = generation 1, c1-0 (set at
   *   onJoinComplete). OffsetMetadataManager.validateTransactionalOffsetCommit →
   *   ClassicGroup.validateOffsetCommit(isTransactional=true): the member is known and generation 1 is
   *   still the group's (it moves only when the join completes); no group-state check for a
   *   transactional commit (nor, in PreparingRebalance, for a plain one): both accepted — the second
   *   after c1 was told of the rebalance. The COMMIT markers materialise them.
   * - Only then does c1's next poll() rejoin: generation 2 {c1, c2} after the second commit; c2 gets
   *   in-1 and reads from the committed offsets. No error but the heartbeat's REBALANCE_IN_PROGRESS;
   *   every input processed once, `out` holding each once.
   */
  it('group-txn-commit-while-preparing: a TxnOffsetCommit with the current generation is accepted while the group prepares a rebalance', () => {
    const r = run('group-txn-commit-while-preparing.json');
    expect(generations(r)).toEqual(['1:c1-0', '2:c1-0,c2-1']);
    const c2Joined = from(r, 'JoinGroup', 'c2')[0]?.sentAt ?? Number.NaN;
    const gen2 = timeOfGeneration(r, 2);
    const told = r.timeOf(r.stepOf((f) => f.kind === 'clientError' && f.client === 'c1' && f.error === 'REBALANCE_IN_PROGRESS'));
    const commits = from(r, 'TxnOffsetCommit', 'c1').filter((e) => e.sentAt > c2Joined && e.sentAt < gen2);
    expect(commits.length).toBe(2);
    expect(commits[1]?.sentAt).toBeGreaterThan(told);
    for (const c of commits) {
      expect(c.payload).toMatchObject({ generationId: 1, memberId: 'c1-0' });
      expect(r.rpcs('TxnOffsetCommitResponse').find((e) => e.inReplyTo === c.id)?.payload).toMatchObject({ error: 'NONE' });
    }
    const materialised = r.facts('offsetsCommitted').filter((f) => f.transactional);
    expect(materialised.map((f) => f.generationId)).toEqual([1, 1, 2]);
    expect(r.errors('c1')).toEqual(['REBALANCE_IN_PROGRESS']);
    expect(r.errors('c2')).toEqual([]);
    const processed = r.facts('processed').map((f) => f.key);
    expect([...processed].sort()).toEqual(['a0', 'a1', 'b0', 'b1']);
    expect(
      r
        .data('out-0')
        .map((x) => x.key)
        .sort(),
    ).toEqual(['a0', 'a1', 'b0', 'b1']);
    expect(r.partition('out-0').records.filter((x) => x.control === 'ABORT')).toEqual([]);
  });

  /*
   * group-static-restart with the restart 20 s after the crash, past session.timeout.ms (10000).
   * - A static member's session still expires (expireClassicGroupMemberHeartbeat →
   *   removeMemberAndUpdateClassicGroup; ClassicGroup.remove drops its instance-id mapping): c1's last
   *   heartbeat or commit at ~9000 → removed at ~19000, PreparingRebalance; c2, told by its next
   *   heartbeat, completes generation 2 {c2} alone and processes a1 (committed 1) again, then a2, a3.
   * - The restarted instance (~29000) joins with i1 and no member id: the instance id is no longer
   *   mapped, so it is a new member (addMemberThenRebalanceOrCompleteJoin: a rebalance, no
   *   replacement); c2 is told by its next heartbeat: generation 3 {i1-2, c2}, the static member
   *   first in RangeAssignor's order, so in-0 again, committed at 4 by c2: nothing more for c1.
   */
  it('group-static-restart, past the session: removed like a dynamic member, the restart joins as a new member with a rebalance', () => {
    const r = run('group-static-restart.json', (sc) => ({
      ...sc,
      faults: (sc.faults ?? []).map((f) => ({ ...f, durationMs: 20000 })),
    }));
    expect(generations(r)).toEqual(['1:c2-1,i1-0', '2:c2-1', '3:c2-1,i1-2']);
    expect(r.facts('staticMemberReplaced')).toEqual([]);
    const removed = r.timeOf(
      r.stepOf((f) => f.kind === 'note' && f.actor === 'group-coordinator' && f.text.includes('i1-0 sent no heartbeat')),
    );
    expect(removed).toBeGreaterThan(18900);
    expect(removed).toBeLessThan(19200);
    expect(timeOfGeneration(r, 2)).toBeLessThan(removed + 3100);
    expect(timeOfGeneration(r, 3)).toBeGreaterThan(29000);
    expect(processedBy(r, 'c1')).toEqual(['0@0', '0@1']);
    expect(processedBy(r, 'c2').filter((x) => x.startsWith('0@'))).toEqual(['0@1', '0@2', '0@3']);
  });
});
