/**
 * Scenarios found by the fuzzer (shrunk by hand to their essence), kept as regression tests: each
 * must run without breaking an invariant. One that fails is an open engine bug — see the file's
 * `description`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInvariants, formatViolations, lateOffsetCommitSteps, runChecked } from '../../src/sim/checks/invariants';
import { runScenario, stateAt, type Trace } from '../../src/sim/run';
import { partitionRows } from '../../src/sim/trace/logView';
import { summarize } from '../../src/sim/trace/summary';
import { producerRuleViolations } from './producerRules';
import { streamsOutputProblems } from './streamsOutput';

const dir = join(import.meta.dirname, 'regressions');
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

describe('scenarios the fuzzer found', () => {
  it('there are some', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s keeps every invariant', (file) => {
    const scenario = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    expect(formatViolations(runChecked(scenario, { everyStep: true }).violations)).toBe('');
  });

  it("the one-replica coordinator's markers reach a replicated output partition's new leader, and the transaction completes", () => {
    const scenario = JSON.parse(readFileSync(join(dir, 'markers-follow-moved-leader.json'), 'utf8'));
    const trace = runScenario(scenario);
    const states = trace.steps.flatMap((s) =>
      (s.facts as { kind: string; transactionalId?: string; to?: string }[]).filter(
        (f) => f.kind === 'txnState' && f.transactionalId === 'c0-txn',
      ),
    );
    expect(states.at(-1)?.to).toBe('CompleteCommit');
    // the marker was refused by the old leader a few times at most, not for the rest of the run
    expect(trace.envelopes.filter((e) => e.rpc === 'WriteTxnMarkers').length).toBeLessThan(10);
  });

  it("a JoinGroup refused UNKNOWN_MEMBER_ID gives a Streams member's partitions away as lost: exactly_once_v2 output once", () => {
    const scenario = JSON.parse(readFileSync(join(dir, 'join-unknown-member-loses-partitions.json'), 'utf8'));
    const trace = runScenario(scenario);
    expect(streamsOutputProblems(trace)).toEqual([]);
    const steps = [...trace.steps];
    const refused = steps.findIndex(
      (s) =>
        s.actor === 'st0.consumer' &&
        (s.facts as { kind: string; error?: string }[]).some((f) => f.kind === 'clientError' && f.error === 'UNKNOWN_MEMBER_ID'),
    );
    expect(refused).toBeGreaterThan(0);
    // the lost callback reaches st0's stream thread before its consumer joins again
    const lost = steps.findIndex(
      (s, i) =>
        i > refused && s.actor === 'st0.app' && s.label === 'onPartitionsRevoked' && (s.detail as { lost?: boolean } | null)?.lost === true,
    );
    const rejoined = steps.findIndex(
      (s, i) => i > refused && s.actor === 'group-coordinator' && s.label === 'JoinGroup' && s.from === 'st0.consumer',
    );
    expect(lost).toBeGreaterThan(refused);
    expect(rejoined).toBeGreaterThan(lost);
  });

  it('a pause at a point of the Streams loop still lets the run settle (the held timers stay cancellable)', () => {
    const scenario = JSON.parse(readFileSync(join(dir, 'pause-at-loop-point-settles.json'), 'utf8'));
    const trace = runScenario(scenario);
    expect(trace.stopReason).toBe('quiescent');
    expect(trace.endTime).toBeLessThan(150000);
  });

  it('an OffsetCommit that lands after its client closed the connection is applied, and may set the committed offset back', () => {
    const scenario = JSON.parse(readFileSync(join(dir, 'late-offset-commit-after-close.json'), 'utf8'));
    const trace = runScenario(scenario);
    const commits = trace.steps.flatMap((s) =>
      (s.facts as { kind: string; offsets?: { offset: number }[] }[])
        .filter((f) => f.kind === 'offsetsCommitted')
        .map((f) => f.offsets?.[0]?.offset),
    );
    // the retry commits 1, the next commit 2, then the late original 1 lands (Kafka has no fencing for it)
    expect(commits.slice(0, 3)).toEqual([1, 2, 1]);
    expect(formatViolations(runChecked(scenario, { everyStep: true }).violations)).toBe('');
  });

  it('with __consumer_offsets replicated, a late OffsetCommit takes effect where its write is answered, and the checker follows it there', () => {
    const scenario = JSON.parse(readFileSync(join(dir, 'late-offset-commit-replicated-offsets.json'), 'utf8'));
    const trace = runScenario(scenario);
    const commits = trace.steps.flatMap((s) =>
      (s.facts as { kind: string; offsets?: { offset: number }[] }[])
        .filter((f) => f.kind === 'offsetsCommitted')
        .map((f) => ({ step: s.i, offset: f.offsets?.[0]?.offset })),
    );
    // 2, then the delayed commit of 3 times out and its retry commits 3, the next commit 4, then the late 3 lands
    expect(commits.map((c) => c.offset)).toEqual([2, 3, 4, 3]);
    const lateCommit = commits[3]?.step as number;
    const request = trace.envelopes.find((e) => e.rpc === 'OffsetCommit' && e.fault !== null);
    // the write is answered after the delivery (the high watermark has to pass it), and that step counts as late
    expect(request?.deliveredStep).toBeLessThan(lateCommit);
    expect(lateOffsetCommitSteps(trace).has(lateCommit)).toBe(true);
    expect(formatViolations(runChecked(scenario, { everyStep: true }).violations)).toBe('');
  });

  it('a leader paused past its session appends its queued Produce; the retry to the new leader is written at that offset again, one copy in the end', () => {
    const scenario = JSON.parse(readFileSync(join(dir, 'deposed-leader-append-written-again.json'), 'utf8'));
    const trace = runScenario(scenario);
    const seen = [...trace.steps].flatMap((s) =>
      (s.facts as { kind: string; baseOffset?: number; fromOffset?: number }[])
        .filter((f) => f.kind === 'append' || f.kind === 'truncated' || f.kind === 'leaderChange')
        .map((f) => `${s.actor} ${f.kind} ${f.baseOffset ?? f.fromOffset ?? ''}`.trim()),
    );
    expect(seen).toEqual(['controller leaderChange', 'broker-1 append 0', 'broker-0 append 0', 'broker-1 truncated 0']);
    expect(producerRuleViolations(trace)).toEqual([]);
    expect(formatViolations(runChecked(scenario, { everyStep: true }).violations)).toBe('');
  });

  it("a deposed leader's appends (a paused broker resuming) are not the partition's history: the producer checks follow the elected leader", () => {
    const scenario = JSON.parse(readFileSync(join(dir, 'deposed-leader-appends-not-the-history.json'), 'utf8'));
    const trace = runScenario(scenario);
    const appends = trace.steps.flatMap((s) =>
      (s.facts as { kind: string; topic?: string; leaderEpoch?: number; baseSequence?: number; broker?: string }[])
        .filter((f) => (f.kind === 'append' || f.kind === 'truncated') && f.topic === 'in2')
        .map((f) => `${s.actor} ${f.kind} e${f.leaderEpoch ?? ''} s${f.baseSequence ?? ''}`),
    );
    // the deposed broker-0 appended sequences 0-2 at leader epoch 0 after broker-1 (epoch 1) had 0-3, and truncated them
    expect(appends).toContain('broker-0 append e0 s0');
    expect(appends).toContain('broker-0 truncated e1 s');
    expect(appends.at(-2)).toBe('broker-1 append e1 s4');
    expect(producerRuleViolations(trace)).toEqual([]);
  });

  it('a deposed leader elected again (unclean) before it truncated leads with its own appends: the producer checks follow its log', () => {
    const scenario = JSON.parse(readFileSync(join(dir, 'deposed-leader-elected-again-keeps-its-appends.json'), 'utf8'));
    const trace = runScenario(scenario);
    const seen = trace.steps.flatMap((s) =>
      (s.facts as { kind: string; topic?: string; leader?: string | null; election?: string | null; baseSequence?: number }[])
        .filter((f) => (f.kind === 'append' && f.topic === 'in0') || (f.kind === 'leaderChange' && f.election === 'unclean'))
        .map((f) => (f.kind === 'append' ? `${s.actor} s${f.baseSequence}` : `unclean ${f.leader}`)),
    );
    // broker-0 appends sequence 1 while deposed, is elected again uncleanly, and appends sequence 2 after it
    expect(seen.slice(0, 4)).toEqual(['broker-0 s0', 'broker-0 s1', 'unclean broker-0', 'broker-0 s2']);
    expect(producerRuleViolations(trace)).toEqual([]);
  });

  it("an epoch bump asked by a failure answered while a batch of the partition is in flight rewrites that batch: its retry is a second copy, Kafka's own", () => {
    const scenario = JSON.parse(readFileSync(join(dir, 'epoch-bump-rewrites-batch-in-flight.json'), 'utf8'));
    const trace = runScenario(scenario);
    const copies = trace.steps.flatMap((s) =>
      (s.facts as { kind: string; topic?: string; producerEpoch?: number; baseSequence?: number; origins?: { ref: number }[] }[])
        .filter((f) => f.kind === 'append' && f.topic === 'in0' && f.origins?.[0]?.ref === 3)
        .map((f) => `${s.actor} e${f.producerEpoch} s${f.baseSequence}`),
    );
    // send #3 is appended under epoch 2 (sent before the bump), then its retry under epoch 3 from sequence 0
    expect(copies).toEqual(['broker-0 e2 s1', 'broker-1 e3 s0']);
    const rejected = trace.steps.find((s) =>
      (s.facts as { kind: string; ref?: number; error?: string | null }[]).some(
        (f) => f.kind === 'sendResult' && f.ref === 2 && f.error === 'INVALID_RECORD',
      ),
    );
    const firstCopy = trace.steps.find((s) =>
      (s.facts as { kind: string; producerEpoch?: number }[]).some((f) => f.kind === 'append' && f.producerEpoch === 2),
    );
    // the failure was answered after the first copy was sent and before the broker appended it
    const sent = trace.envelopes.at(firstCopy?.envelope as number)?.sentStep as number;
    expect(sent).toBeLessThan(rejected?.i as number);
    expect(rejected?.i).toBeLessThan(firstCopy?.i as number);
    expect(producerRuleViolations(trace)).toEqual([]);
  });

  it('a Streams input record an unclean election took out of the log after it was processed still counts as input for its committed output', () => {
    const scenario = JSON.parse(readFileSync(join(dir, 'unclean-election-takes-processed-streams-input.json'), 'utf8'));
    const trace = runScenario(scenario);
    const seen = trace.steps.flatMap((s) =>
      (s.facts as { kind: string; topic?: string; election?: string | null; eventIds?: (string | null)[]; control?: string | null }[])
        .filter(
          (f) =>
            (f.kind === 'append' && f.control === null && (f.topic === 'in0' || f.topic === 'out-st0')) ||
            (f.kind === 'leaderChange' && f.topic === 'in0' && f.election === 'unclean'),
        )
        .map((f) => (f.kind === 'append' ? `${f.topic} ${f.eventIds?.join(',')}` : 'unclean in0')),
    );
    // p0-0 appended to in0 and processed (its count to the changelog) while broker-0 led, then the unclean
    // election of in0-0 (broker-1 never had it), and the open transaction with its result committed after
    expect(seen.indexOf('in0 p0-0')).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf('in0 p0-0')).toBeLessThan(seen.indexOf('unclean in0'));
    expect(seen).toContain('out-st0 p0-0');
    const end = partitionRows(stateAt(trace, trace.steps.length).actors);
    expect(end.find((p) => p.topic === 'in0')?.records.some((r) => r.headers.event_id === 'p0-0')).toBe(false);
    expect(streamsOutputProblems(trace)).toEqual([]);
    expect(formatViolations(runChecked(scenario, { everyStep: true }).violations)).toBe('');
  });

  it('a Produce that reaches a broker at the instant it restarts is handled by the restarted broker, not lost', () => {
    const scenario = JSON.parse(readFileSync(join(dir, 'restart-before-same-instant-delivery.json'), 'utf8'));
    const trace = runScenario(scenario);
    const rejected = trace.steps.flatMap((s) => (s.facts as { kind: string }[]).filter((f) => f.kind === 'rejected'));
    expect(rejected).toEqual([]);
    const delivered = trace.steps.flatMap((s) =>
      (s.facts as { kind: string; headers?: Record<string, string> }[])
        .filter((f) => f.kind === 'delivered')
        .map((f) => f.headers?.event_id),
    );
    expect([...delivered].sort()).toEqual(['e0', 'e1']);
  });

  it("after an unclean election a committed transaction's records without their marker are aborted by the producer's next ABORT there, and read_committed skips them", () => {
    const scenario = JSON.parse(readFileSync(join(dir, 'unclean-election-aborts-committed-transaction.json'), 'utf8'));
    const trace = runScenario(scenario);
    const facts = trace.steps.flatMap((s, step) => (s.facts as { kind: string }[]).map((f) => ({ step, f })));
    const committedAt = facts.find(({ f }) => f.kind === 'txnState' && (f as { to?: string }).to === 'CompleteCommit')?.step ?? -1;
    const skips = facts
      .filter(({ f }) => f.kind === 'skipped')
      .map(({ step, f }) => ({ step, ...(f as unknown as { baseOffset: number; lastOffset: number; reason: string }) }));
    // delivered first (committed on broker-1), then skipped as aborted once broker-0's log ABORTs them —
    // by c1, which reads the log later: c0, which read them, detects the truncation after broker-0's
    // unclean election (KIP-320) and goes back to where its last epoch ends there, not to the start.
    // (Since a restarted broker accepts no connection until it is unfenced, c0's last fetched epoch is
    // 0, which ends at offset 3 on the new leader: p0's ABORT marker at 0, then k1 and k2.)
    // The dropped AddPartitionsToTxnResponse is the 5th: since the hosted coordinator answers EndTxn
    // before it queues the markers (TransactionCoordinator.endTransaction's append callback), the
    // answers' order at t = 100 changed, and the 4th was that of p1's second transaction, which then
    // aborted at once on broker-1, before it failed (no ABORT reached the new leader).
    expect(committedAt).toBeGreaterThan(0);
    const notes = facts.map(({ f }) => (f as { text?: string }).text ?? '');
    expect(notes).toContain(
      'truncation detected for partition in0-0 at offset 5: leader epoch 0 ends at offset 3 on the leader, so the consumer resets its offset to the first offset known to diverge, 3',
    );
    // k1 and k2 (offsets 1 and 2), committed on broker-1, skipped as aborted on broker-0 by c1
    expect(skips.filter((s) => s.step > committedAt && s.reason === 'aborted').map((s) => [s.baseOffset, s.lastOffset])).toEqual([[1, 2]]);
    expect(formatViolations(runChecked(scenario, { everyStep: true }).violations)).toBe('');
  });
  it('a deposed group coordinator keeps a timed-out write in its own memory; the new coordinator’s offsets are the group’s, and the same fact from it would break the invariant', () => {
    const scenario = JSON.parse(readFileSync(join(dir, 'deposed-group-coordinator-keeps-timed-out-write.json'), 'utf8'));
    const trace = runScenario(scenario);
    type Commit = { kind: string; groupId?: string; offsets?: { offset: number }[] };
    const commits = trace.steps.flatMap((s) =>
      (s.facts as Commit[])
        .filter((f) => f.kind === 'offsetsCommitted')
        .map((f) => ({ step: s.i, actor: s.actor, offset: f.offsets?.[0]?.offset })),
    );
    // broker-0's coordinator commits 2, then broker-2's (deposed, resuming) keeps its timed-out 1
    expect(commits.slice(-2).map((c) => `${c.actor} ${c.offset}`)).toEqual([
      'broker-0.group-coordinator 2',
      'broker-2.group-coordinator 1',
    ]);
    const notes = trace.steps.flatMap((s) => (s.facts as { kind: string; text?: string }[]).map((f) => f.text ?? ''));
    expect(notes.some((t) => t.startsWith('write to __consumer_offsets-2 timed out waiting for the high watermark'))).toBe(true);
    // what the group holds at the end is the new coordinator's 2
    expect(summarize(trace).groups.find((g) => g.groupId === 'g1')?.committed).toEqual({ 'in0-0': 2 });
    expect(formatViolations(checkInvariants(trace))).toBe('');
    // the same commit told by the coordinator that leads the partition is a real step back
    const last = commits.at(-1)?.step as number;
    const doctored: Trace = { ...trace, steps: trace.steps.map((s) => (s.i === last ? { ...s, actor: 'broker-0.group-coordinator' } : s)) };
    expect(formatViolations(checkInvariants(doctored))).toContain('committed-offsets-monotonic');
  });
});
