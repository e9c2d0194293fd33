/**
 * Where two consumer-group rules meet, through whole runs, each worked out step by step from Kafka's
 * source (ClassicKafkaConsumer, ConsumerCoordinator, AbstractCoordinator, FetchCollector /
 * CompletedFetch; GroupMetadataManager, OffsetMetadataManager, ClassicGroup; TransactionManager's
 * TxnOffsetCommitHandler). Each case checks a meeting of rules that no other test runs as a whole:
 *
 * 1. enable.auto.commit with processing longer than max.poll.interval.ms: the poll timeout's
 *    LeaveGroup resets the generation, so the auto-commit of the next poll()'s onJoinPrepare has no
 *    stable generation and fails without a request (sendOffsetCommitRequest: CommitFailedException):
 *    nothing is ever committed and every rejoin reads the batch again.
 * 2. commitSync() that blocks past max.poll.interval.ms (commitOffsetsSync never calls
 *    Heartbeat.poll): the LeaveGroup goes out while the commit is in flight, behind it on the
 *    coordinator's connection; the commit, accepted (the member is still in the PreparingRebalance
 *    group), answers NONE and commitSync() returns although the generation is gone; the next poll()
 *    joins with an empty member id.
 * 3. A static member's poll timeout: no LeaveGroup (maybeLeaveGroup: isDynamicMember), the
 *    generation and member id reset all the same, and the rejoin with its group.instance.id replaces
 *    its old member id in the Stable group without a rebalance — the trace's note says so.
 * 4. read_committed, max.poll.records=1, an aborted and a committed transaction interleaved, and the
 *    partition handed to another member whose committed offset lies inside the aborted
 *    transaction: the broker returns the aborted transaction whose first offset is below the fetch
 *    offset (lastOffset ≥ fetchOffset), and the new owner skips the rest of it.
 * 5. KIP-447: a frozen exactly-once member whose TxnOffsetCommit was accepted before the group
 *    dropped it commits after the rebalance (the transaction coordinator does not ask the group); the
 *    new owner's OffsetFetch (requireStable) is answered UNSTABLE_OFFSET_COMMIT until that commit's
 *    marker, then starts at the zombie's committed offsets: nothing is processed twice.
 * 6. auto.offset.reset=latest (no committed offset) while a transaction is open: ListOffsets LATEST
 *    answers the LSO to read_committed (Partition.fetchOffsetForTimestamp: lastFetchableOffset) and
 *    the high watermark to read_uncommitted — the first reads the transaction once it commits, the
 *    second never sees it.
 * 7. A static exactly-once member whose processing outlasts max.poll.interval.ms: the poll timeout
 *    resets its generation but not consumer.groupMetadata() (only onJoinComplete sets it), and it
 *    sends no LeaveGroup, so the group still holds it: its TxnOffsetCommit with generation 1 is
 *    accepted, the transaction commits, and its rejoin replaces it without a rebalance — each record
 *    once.
 */
import { describe, expect, it } from 'vitest';
import { pollTimeoutNote } from '../../src/sim/consumer/membership';
import { translateNote } from '../../src/sim/narration/notes';
import { findPreset } from '../../src/sim/presets';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';

type Payload = Record<string, unknown>;
const envelopes = (t: Trace) => [...t.envelopes].filter((e) => e !== undefined && e !== null);
const requests = (t: Trace, rpc: string, from: string) => envelopes(t).filter((e) => e.rpc === rpc && e.from === from);
const facts = <K extends Fact['kind']>(t: Trace, kind: K) =>
  t.steps.flatMap((s) => s.facts as Fact[]).filter((f): f is Extract<Fact, { kind: K }> => f.kind === kind);
const delivered = (t: Trace, consumer: string) =>
  facts(t, 'delivered')
    .filter((f) => f.consumer === consumer)
    .map((f) => `${f.topic}-${f.partition}@${f.offset}`);
const notes = (t: Trace, actor: string) =>
  facts(t, 'note')
    .filter((f) => f.actor === actor)
    .map((f) => f.text);
const replyTo = (t: Trace, actor: string, call: string) =>
  t.steps
    .filter((s) => s.kind === 'call' && s.label === 'reply' && s.actor === actor && (s.detail as Payload | null)?.call === call)
    .map((s) => ({ t: s.t, detail: s.detail as Payload }));

const send = (topic: string, n: number, prefix = 'e', extra: Payload = {}) => ({
  op: 'send',
  topic,
  key: `${prefix}{i}`,
  value: 'v',
  headers: { event_id: `${prefix}{i}` },
  count: n,
  ...extra,
});

describe('auto-commit meets the poll timeout', () => {
  const scenario = (groupInstanceId?: string) => ({
    version: 1,
    seed: 1,
    cluster: { 'group.initial.rebalance.delay.ms': 0 },
    run: { maxTimeMs: 40000 },
    topics: [{ name: 't', partitions: 1 }],
    clients: [
      { id: 'p', type: 'producer', startAt: 500, script: [send('t', 3), { op: 'flush' }] },
      {
        id: 'c1',
        type: 'consumer',
        config: {
          'group.id': 'g',
          'auto.offset.reset': 'earliest',
          'max.poll.interval.ms': 10000,
          ...(groupInstanceId ? { 'group.instance.id': groupInstanceId } : {}),
        },
        topics: ['t'],
        // three records of 4 s each: 12 s between two polls
        processing: { mode: 'auto-commit', processingMs: 4000 },
      },
    ],
  });

  it('nothing is ever committed: the next poll()’s onJoinPrepare has no stable generation, its auto-commit sends nothing, and the batch is read again at every rejoin', () => {
    const trace = runScenario(scenario());
    expect(requests(trace, 'OffsetCommit', 'c1.consumer')).toEqual([]);
    expect(facts(trace, 'offsetsCommitted')).toEqual([]);
    const leaves = requests(trace, 'LeaveGroup', 'c1.consumer');
    expect(leaves.length).toBeGreaterThanOrEqual(2);
    // every JoinGroup after a poll timeout carries no member id (resetGenerationOnLeaveGroup)
    // (each answered MEMBER_ID_REQUIRED and followed by one with the member id it gave)
    const all = requests(trace, 'JoinGroup', 'c1.consumer');
    const joins = all.filter((j) => (j.payload as Payload).memberId === '');
    expect(joins.length).toBe(leaves.length + 1);
    expect(all.length).toBe(2 * joins.length);
    // the same three records, from offset 0, after each rejoin
    const got = delivered(trace, 'c1');
    expect(got.filter((r) => r === 't-0@0').length).toBe(joins.length);
    expect(summarize(trace).verdict.layers.find((l) => l.layer === 'processing' && l.subject === 'c1')?.status).toBe('more-than-once');
  });

  it('a static member sends no LeaveGroup, replaces itself in the Stable group without a rebalance, and the note says so', () => {
    const trace = runScenario(scenario('i1'));
    expect(requests(trace, 'LeaveGroup', 'c1.consumer')).toEqual([]);
    expect(requests(trace, 'OffsetCommit', 'c1.consumer')).toEqual([]);
    const replaced = facts(trace, 'staticMemberReplaced');
    expect(replaced.length).toBeGreaterThanOrEqual(1);
    expect(replaced[0]).toMatchObject({ groupId: 'g', groupInstanceId: 'i1', generationId: 1, state: 'Stable' });
    // one generation all along: the replacement is no rebalance
    expect(facts(trace, 'rebalance').map((f) => f.generationId)).toEqual([1]);
    // the note said "the consumer leaves the group" before
    const text =
      'poll() was not called for max.poll.interval.ms (10000 ms): a static member sends no LeaveGroup — it drops its generation and member id and rejoins with its group.instance.id at its next poll(); the group keeps it, and its partitions, until session.timeout.ms (consumer poll timeout has expired)';
    expect(notes(trace, 'c1.consumer').some((n) => n.includes('the consumer leaves the group'))).toBe(false);
    expect(notes(trace, 'c1.consumer')).toContain(text);
    expect(pollTimeoutNote(10000, false, true)).toBe(text);
    expect(translateNote(text, 'ko')).toBe(
      'poll()이 max.poll.interval.ms(10000 ms) 동안 호출되지 않았습니다. 정적 멤버는 LeaveGroup을 보내지 않습니다. 세대와 멤버 ID를 버리고 다음 poll()에서 group.instance.id로 다시 참여하며, 그룹은 session.timeout.ms까지 이 멤버와 그 파티션을 유지합니다(consumer poll timeout has expired)',
    );
    expect(translateNote(pollTimeoutNote(10000, false, false), 'ko')).not.toBe(pollTimeoutNote(10000, false, false));
    // a dynamic member's note is unchanged
    expect(pollTimeoutNote(1000, true, false)).toBe(
      'poll() was not called for max.poll.interval.ms (1000 ms): the consumer leaves the group (consumer poll timeout has expired)',
    );
  });
});

describe('commitSync() in flight past max.poll.interval.ms while another member joins', () => {
  const scenario = {
    version: 1,
    seed: 1,
    cluster: { 'group.initial.rebalance.delay.ms': 0 },
    topics: [{ name: 't', partitions: 2 }],
    clients: [
      {
        id: 'p',
        type: 'producer',
        startAt: 1000,
        script: [
          { op: 'send', topic: 't', partition: 0, key: 'a', value: '1', headers: { event_id: 'e1' } },
          { op: 'send', topic: 't', partition: 1, key: 'b', value: '2', headers: { event_id: 'e2' } },
          { op: 'flush' },
        ],
      },
      {
        id: 'c1',
        type: 'consumer',
        config: { 'group.id': 'g', 'auto.offset.reset': 'earliest', 'enable.auto.commit': false, 'max.poll.interval.ms': 10000 },
        topics: ['t'],
        processing: { mode: 'at-least-once', processingMs: 5 },
      },
      {
        id: 'c2',
        type: 'consumer',
        startAt: 1010,
        config: { 'group.id': 'g', 'auto.offset.reset': 'earliest', 'enable.auto.commit': false },
        topics: ['t'],
        processing: { mode: 'at-least-once', processingMs: 5 },
      },
    ],
    // the commit (and everything behind it on c1's connection to the coordinator) takes 12 s
    faults: [{ type: 'delay', rpc: 'OffsetCommit', from: 'c1.consumer', nth: 1, delayMs: 12000 }],
  };

  it('the LeaveGroup goes out behind the commit, the commit is accepted and commitSync() returns; the next poll() joins with no member id', () => {
    const trace = runScenario(scenario);
    const [commit] = requests(trace, 'OffsetCommit', 'c1.consumer');
    const [leave] = requests(trace, 'LeaveGroup', 'c1.consumer');
    expect(commit && leave).toBeTruthy();
    // commitOffsetsSync does not reset the poll timer: the LeaveGroup leaves while the commit waits
    expect((leave?.sentAt ?? 0) - (commit?.sentAt ?? 0)).toBeLessThan(12000);
    expect(leave?.sentAt).toBeGreaterThan(commit?.sentAt ?? 0);
    // the coordinator reads the commit first (one connection, in order): c1 is still a member of the
    // PreparingRebalance group in generation 1, so the commit is written
    expect(facts(trace, 'offsetsCommitted')[0]).toMatchObject({ groupId: 'g', generationId: 1 });
    const answer = envelopes(trace).find((e) => e.rpc === 'OffsetCommitResponse' && e.to === 'c1.consumer');
    expect((answer?.payload as Payload).error).toBe('NONE');
    // NONE completes commitSync() although maybeLeaveGroup reset the generation meanwhile
    expect(replyTo(trace, 'c1.app', 'commitSync')[0]?.detail).toMatchObject({ ok: true });
    // the LeaveGroup, read next, completes c2's join without c1
    expect(facts(trace, 'rebalance').find((f) => f.generationId === 2)?.members).toEqual(['c2-1']);
    // the next poll(): onJoinPrepare with no generation, JoinGroup with an empty member id
    const joins = requests(trace, 'JoinGroup', 'c1.consumer');
    // (each join as a new member: MEMBER_ID_REQUIRED, then the JoinGroup with the id it gave)
    expect(joins.map((j) => (j.payload as Payload).memberId)).toEqual(['', 'c1-0', '', 'c1-2']);
    expect(joins[2]?.sentAt).toBeGreaterThan(answer?.sentAt ?? 0);
  });
});

describe('read_committed: interleaved aborted and committed transactions, max.poll.records=1, a handover', () => {
  const txnSends = (prefix: string, offsets: readonly number[], at: readonly number[]) =>
    offsets.flatMap((n, i) => [
      { op: 'send', topic: 't', partition: 0, key: prefix, value: String(n), headers: { event_id: `${prefix}${n}` }, at: at[i] },
      { op: 'flush' },
    ]);
  const rc = {
    'group.id': 'g',
    'auto.offset.reset': 'earliest',
    'enable.auto.commit': false,
    'isolation.level': 'read_committed',
    'max.poll.records': 1,
  };
  const scenario = {
    version: 1,
    seed: 3,
    cluster: { 'group.initial.rebalance.delay.ms': 0 },
    topics: [{ name: 't', partitions: 1 }],
    clients: [
      // ta writes a0 @0, a2 @2, a4 @4 and commits at 3000 (COMMIT @6)
      {
        id: 'pa',
        type: 'producer',
        config: { 'transactional.id': 'ta' },
        startAt: 500,
        script: [
          { op: 'beginTransaction', at: 1000 },
          ...txnSends('a', [0, 2, 4], [1000, 1200, 1400]),
          { op: 'commitTransaction', at: 3000 },
        ],
      },
      // tb writes b1 @1, b3 @3 and aborts at 2500 (ABORT @5)
      {
        id: 'pb',
        type: 'producer',
        config: { 'transactional.id': 'tb' },
        startAt: 500,
        script: [{ op: 'beginTransaction', at: 1000 }, ...txnSends('b', [1, 3], [1100, 1300]), { op: 'abortTransaction', at: 2500 }],
      },
      {
        id: 'c1',
        type: 'consumer',
        config: { ...rc, 'session.timeout.ms': 10000 },
        topics: ['t'],
        processing: { mode: 'at-least-once', processingMs: 5 },
      },
      { id: 'c2', type: 'consumer', startAt: 100, config: rc, topics: ['t'], processing: { mode: 'at-least-once', processingMs: 5 } },
    ],
    // c1 commits 1 (after a0) and 3 (after a2) and crashes before committing 5 (after a4)
    faults: [{ type: 'crash', target: 'c1', point: 'beforeCommit', nth: 3 }],
  };

  it('the new owner starts at 3, inside tb’s aborted transaction (first offset 1): the fetch carries it and b3 is skipped', () => {
    const trace = runScenario(scenario);
    expect(delivered(trace, 'c1')).toEqual(['t-0@0', 't-0@2', 't-0@4']);
    expect(facts(trace, 'offsetsCommitted').map((f) => f.offsets[0]?.offset)).toEqual([1, 3, 5]);
    const fetchOf = envelopes(trace).find(
      (e) =>
        e.rpc === 'FetchResponse' &&
        e.to === 'c2.consumer' &&
        ((e.payload as { partitions?: { batches?: { baseOffset: number }[] }[] }).partitions?.[0]?.batches?.[0]?.baseOffset ?? -1) === 3,
    );
    // UnifiedLog.collectAbortedTransactions: the entry whose ABORT marker (5) is at or past the fetch offset
    const aborted = (fetchOf?.payload as { partitions: { abortedTransactions: { firstOffset: number; lastOffset: number }[] }[] })
      .partitions[0]?.abortedTransactions;
    expect(aborted).toEqual([expect.objectContaining({ firstOffset: 1, lastOffset: 5 })]);
    expect(facts(trace, 'skipped').filter((f) => f.consumer === 'c2')).toEqual([
      expect.objectContaining({ baseOffset: 3, reason: 'aborted' }),
      expect.objectContaining({ baseOffset: 5, reason: 'control' }),
      expect.objectContaining({ baseOffset: 6, reason: 'control' }),
    ]);
    // only a4 again (c1 crashed before committing it); no aborted record reaches anyone
    expect(delivered(trace, 'c2')).toEqual(['t-0@4']);
  });
});

describe('KIP-447: a zombie’s accepted TxnOffsetCommit and the new owner’s OffsetFetch', () => {
  it('the new owner waits on UNSTABLE_OFFSET_COMMIT until the zombie commits after the rebalance, then starts at its offsets', () => {
    const preset = findPreset('rebalance-zombie-fenced');
    if (!preset) throw new Error('no preset rebalance-zombie-fenced');
    // worker-a freezes for 15 s (past session.timeout.ms, 10 s) just after its TxnOffsetCommit was accepted
    const trace = runScenario({
      ...preset.scenario,
      faults: [{ type: 'pause', target: 'worker-a', point: 'afterSendOffsets', nth: 1, durationMs: 15000 }],
    });
    const txnCommits = envelopes(trace).filter((e) => e.rpc === 'TxnOffsetCommitResponse' && e.to === 'worker-a.producer');
    expect(txnCommits.map((e) => (e.payload as Payload).error)).toEqual(['NONE']);
    // the group drops worker-a and gives orders-0 to worker-b
    const gen2 = facts(trace, 'rebalance').find((f) => f.groupId === 'enricher' && f.generationId === 2);
    expect(gen2?.members).toEqual(['worker-b-1']);
    // worker-a's EndTxn, after the rebalance, commits: the transaction coordinator does not ask the group
    const endTxn = envelopes(trace).find((e) => e.rpc === 'EndTxnResponse' && e.to === 'worker-a.producer');
    expect((endTxn?.payload as Payload).error).toBe('NONE');
    const gen2At = trace.steps.find((s) =>
      (s.facts as Fact[]).some((f) => f.kind === 'rebalance' && f.groupId === 'enricher' && f.generationId === 2),
    )?.t;
    expect(endTxn?.sentAt).toBeGreaterThan(gen2At ?? Infinity);
    // worker-b: UNSTABLE_OFFSET_COMMIT for orders-0 while the transaction is open, then offset 2
    const fetches = envelopes(trace).filter((e) => e.rpc === 'OffsetFetchResponse' && e.to === 'worker-b.consumer');
    const orders0 = fetches.map((e) => {
      const o = (e.payload as { offsets: { topic: string; partition: number; offset: number; error: string }[] }).offsets.find(
        (x) => x.topic === 'orders' && x.partition === 0,
      );
      return { at: e.sentAt, offset: o?.offset, error: o?.error };
    });
    const unstable = orders0.filter((o) => o.error === 'UNSTABLE_OFFSET_COMMIT');
    expect(unstable.length).toBeGreaterThanOrEqual(3);
    expect(unstable.every((o) => o.at < (endTxn?.sentAt ?? 0))).toBe(true);
    expect(orders0.find((o) => o.at > (endTxn?.sentAt ?? 0) && o.error === 'NONE')?.offset).toBe(2);
    // so worker-b never reads orders-0's two records: each input once, in the committed output too
    expect(delivered(trace, 'worker-b').filter((r) => r.startsWith('orders-0'))).toEqual([]);
    const verdict = summarize(trace).verdict.layers;
    expect(verdict.filter((l) => l.layer === 'processing' || l.layer === 'output').map((l) => l.status)).toEqual([
      'once',
      'once',
      'once',
      'once',
    ]);
  });
});

describe('auto.offset.reset=latest meets an open transaction', () => {
  const reader = (id: string, isolation: string) => ({
    id,
    type: 'consumer',
    startAt: 2000,
    config: { 'group.id': id, 'isolation.level': isolation },
    topics: ['t'],
    processing: { mode: 'at-least-once' },
  });
  const scenario = {
    version: 1,
    seed: 1,
    cluster: { 'group.initial.rebalance.delay.ms': 0 },
    topics: [{ name: 't', partitions: 1 }],
    clients: [
      {
        id: 'plain',
        type: 'producer',
        script: [{ op: 'send', topic: 't', key: 'z', value: '0', headers: { event_id: 'z0' }, at: 500 }, { op: 'flush' }],
      },
      {
        id: 'tx',
        type: 'producer',
        config: { 'transactional.id': 'tx-0' },
        script: [{ op: 'beginTransaction', at: 1000 }, send('t', 2, 'a'), { op: 'flush' }, { op: 'commitTransaction', at: 5000 }],
      },
      reader('rc', 'read_committed'),
      reader('ru', 'read_uncommitted'),
    ],
  };

  it('read_committed starts at the LSO (the open transaction’s first offset) and reads it once committed; read_uncommitted starts at the HW', () => {
    const trace = runScenario(scenario);
    const answer = (to: string) =>
      (envelopes(trace).find((e) => e.rpc === 'ListOffsetsResponse' && e.to === to)?.payload as { partitions: { offset: number }[] })
        .partitions[0]?.offset;
    // z0 @0 committed (no transaction), a0 @1 and a1 @2 in the open transaction: LSO 1, HW 3
    expect(answer('rc.consumer')).toBe(1);
    expect(answer('ru.consumer')).toBe(3);
    expect(delivered(trace, 'rc')).toEqual(['t-0@1', 't-0@2']);
    expect(delivered(trace, 'ru')).toEqual([]);
  });
});

describe('a static exactly-once member past max.poll.interval.ms', () => {
  it('its TxnOffsetCommit still carries generation 1 and is accepted; the transaction commits and the rejoin rebalances nothing', () => {
    const trace = runScenario({
      version: 1,
      seed: 1,
      cluster: { 'group.initial.rebalance.delay.ms': 0 },
      topics: [
        { name: 't', partitions: 1 },
        { name: 'o', partitions: 1 },
      ],
      clients: [
        { id: 'p', type: 'producer', startAt: 500, script: [send('t', 2), { op: 'flush' }] },
        {
          id: 'w',
          type: 'consumer',
          config: {
            'group.id': 'g',
            'auto.offset.reset': 'earliest',
            'enable.auto.commit': false,
            'max.poll.interval.ms': 10000,
            'group.instance.id': 'w1',
          },
          topics: ['t'],
          // two records of 6 s: the poll timer fires at 10.5 s, the offsets go at 12.5 s
          processing: { mode: 'exactly-once', outputTopic: 'o', processingMs: 6000, producerConfig: { 'transactional.id': 'w-0' } },
        },
      ],
    });
    const [commit] = requests(trace, 'TxnOffsetCommit', 'w.producer');
    expect(commit?.payload).toMatchObject({ generationId: 1, memberId: 'w1-0', groupInstanceId: 'w1' });
    const pollTimeoutAt = trace.steps.find((s) => s.label === 'pollTimeoutExpired')?.t ?? Infinity;
    expect(commit?.sentAt).toBeGreaterThan(pollTimeoutAt);
    expect(requests(trace, 'LeaveGroup', 'w.consumer')).toEqual([]);
    const answer = envelopes(trace).find((e) => e.rpc === 'TxnOffsetCommitResponse' && e.to === 'w.producer');
    expect((answer?.payload as Payload).error).toBe('NONE');
    expect(facts(trace, 'offsetsCommitted')).toEqual([expect.objectContaining({ generationId: 1, transactional: true })]);
    expect(facts(trace, 'staticMemberReplaced')).toEqual([expect.objectContaining({ oldMemberId: 'w1-0', state: 'Stable' })]);
    expect(facts(trace, 'rebalance').map((f) => f.generationId)).toEqual([1]);
    expect(summarize(trace).verdict.layers.every((l) => l.status === 'once')).toBe(true);
  });
});
