/**
 * Consumer groups under one fault (family `group-faults`): a producer writes a few records; one to
 * three consumer applications of one group read them (the first possibly slow, the others starting
 * later, so that members wait in rebalances), in any processing mode and with any sink; then
 * exactly one fault, weighted toward what groups and commits live through — a lost reply, a delayed
 * request or reply, a pause, a crash with a restart (of a consumer, the group or transaction
 * coordinator, the broker, the sink), a crash point in the application loop, or a member leaving
 * for good — under either transaction protocol. What must hold at the end (Kafka's rules):
 *
 * - the run settles (nothing hangs: no member left joining, no request held for ever) — with
 *   max.poll.records capped so that a poll's records fit in max.poll.interval.ms, as Kafka requires;
 * - the group is Stable with every consumer that is still running;
 * - every input is processed at least once (at-most-once may lose what a crashed consumer had
 *   committed but not processed), and the group's committed offsets — or, for offsets-in-sink,
 *   the database's — reach the end of the input;
 * - exactly-once: the committed output holds every input once and no transaction is left open
 *   (except under protocol v1 after a late EndTxn, which may end the next transaction early);
 * - offsets-in-sink: the database never applies a record twice;
 * - the group coordinator's rules of groupRules.ts, and every invariant of checks/invariants.ts.
 *
 * Every RPC the run uses may lose its reply, be delayed (also past request.timeout.ms, which closes
 * its connection) or have its connection reset: the network is TCP's (kernel/network.ts).
 */
import fc from 'fast-check';
import { checkInvariants, formatViolations, lateOffsetCommitSteps, lateRequestSteps } from '../../src/sim/checks/invariants';
import { membershipState } from '../../src/sim/consumer/consumer.machine';
import { keyOf } from '../../src/sim/protocol/topicPartition';
import type { Trace } from '../../src/sim/run';
import { stateAt } from '../../src/sim/run';
import type { FaultSpec, ProcessingMode, Scenario } from '../../src/sim/scenario/schema';
import { staleJoin } from '../../src/sim/trace/staleJoin';
import type { TraceSummary } from '../../src/sim/trace/summary';
import { groupRuleProblems } from './groupRules';

export interface GroupFaultsExpectation {
  readonly kind: 'groups';
  readonly records: number;
  readonly mode: ProcessingMode;
  readonly consumers: readonly string[];
  /** at-most-once may lose records when a consumer crashes. */
  readonly mayLose: boolean;
}

const MODES: readonly ProcessingMode[] = [
  'at-most-once',
  'at-least-once',
  'auto-commit',
  'commit-last-processed',
  'exactly-once',
  'consume-produce-no-transactions',
  'offsets-in-sink',
];
const SINKS = [
  null,
  'database:insert',
  'database:upsert',
  'database:inbox',
  'http-api:plain',
  'http-api:idempotency-key',
  'http-api:lookup-before-retry',
  'outbox:',
] as const;

/** Replies whose loss the clients recover from (request timeout, connection closed, retried). */
const LOST_REPLIES = [
  'JoinGroupResponse',
  'SyncGroupResponse',
  'WriteTxnMarkersResponse',
  'AddPartitionsToTxnResponse',
  'OffsetCommitResponse',
  'OffsetFetchResponse',
  'TxnOffsetCommitResponse',
  'AddOffsetsToTxnResponse',
  'EndTxnResponse',
  'InitProducerIdResponse',
  'ProduceResponse',
  'FetchResponse',
  'ListOffsetsResponse',
  'HeartbeatResponse',
  'DbTransactionResult',
  'DbQueryResult',
  'HttpResponse',
] as const;

const DELAYED = [
  'JoinGroup',
  'JoinGroupResponse',
  'SyncGroup',
  'SyncGroupResponse',
  'Heartbeat',
  'OffsetCommit',
  'OffsetFetch',
  'TxnOffsetCommit',
  'AddOffsetsToTxn',
  'AddPartitionsToTxn',
  'EndTxn',
  'Produce',
  'WriteTxnMarkers',
  ...LOST_REPLIES,
] as const;

const faultArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('drop' as const),
      rpc: fc.constantFrom(...LOST_REPLIES),
      nth: fc.integer({ min: 1, max: 4 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('delay' as const),
      rpc: fc.constantFrom(...DELAYED),
      nth: fc.integer({ min: 1, max: 4 }),
      // also past the clients' request.timeout.ms: the connection is then closed and its requests retried
      delayMs: fc.oneof(fc.integer({ min: 1, max: 4500 }), fc.integer({ min: 4500, max: 40000 })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('reset' as const),
      rpc: fc.constantFrom(...DELAYED),
      nth: fc.integer({ min: 1, max: 4 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('restart' as const),
      target: fc.constantFrom('c0', 'c1', 'group-coordinator', 'group-coordinator', 'txn-coordinator', 'broker-0', 'sink'),
      at: fc.integer({ min: 0, max: 12000 }),
      durationMs: fc.integer({ min: 10, max: 5000 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('pause' as const),
      target: fc.constantFrom('c0', 'c1', 'group-coordinator', 'broker-0'),
      at: fc.integer({ min: 0, max: 12000 }),
      durationMs: fc.integer({ min: 10, max: 8000 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('point' as const),
      target: fc.constantFrom('c0', 'c1'),
      point: fc.constantFrom(
        'afterPoll',
        'afterProcess',
        'afterSideEffect',
        'afterProduce',
        'afterSendOffsets',
        'beforeCommit',
        'afterCommit',
      ),
      nth: fc.integer({ min: 1, max: 3 }),
      durationMs: fc.integer({ min: 10, max: 5000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('leave' as const), at: fc.integer({ min: 0, max: 12000 }) }) },
);

/**
 * max.poll.records capped so that one poll's records are processed well within max.poll.interval.ms
 * (3 s to spare for commits and sinks). Kafka's rule, not the model's: a consumer that processes
 * longer than that between polls is taken out of its group (poll timeout → LeaveGroup) and, finding
 * its records again after the rejoin, does so for ever — the group never settles, rightly
 * (tests/consumer/pollTimeout.test.ts shows it). This family checks groups that can settle.
 */
function pollRecordsWithinInterval(maxPollRecords: number, processingMs: number, maxPollIntervalMs: number): number {
  if (processingMs === 0) return maxPollRecords;
  return Math.max(1, Math.min(maxPollRecords, Math.floor((maxPollIntervalMs - 3000) / processingMs)));
}

export const groupFaultsCaseArb = fc
  .record({
    partitions: fc.integer({ min: 1, max: 3 }),
    records: fc.integer({ min: 1, max: 12 }),
    gapMs: fc.integer({ min: 0, max: 1500 }),
    mode: fc.constantFrom(...MODES),
    sink: fc.constantFrom(...SINKS),
    // when the other members start: a member joining later makes a rebalance
    others: fc.array(fc.integer({ min: 0, max: 12000 }), { maxLength: 2 }),
    transactionVersion: fc.constantFrom(1 as const, 2 as const),
    verification: fc.boolean(),
    sessionTimeoutMs: fc.integer({ min: 6000, max: 15000 }),
    maxPollIntervalMs: fc.integer({ min: 10000, max: 30000 }),
    autoCommitIntervalMs: fc.constantFrom(200, 1000, 5000),
    maxPollRecords: fc.constantFrom(1, 3, 500),
    // a slow application keeps its member out of a rebalance for longer than the others' session.timeout.ms
    processingMs: fc.constantFrom(0, 20, 300, 1500, 2500),
    fault: faultArb,
    seed: fc.integer({ min: 1, max: 100000 }),
    // drawn last (every earlier field of a seeded sample stays what it was): in about one case in
    // three the members are static (group.instance.id, KIP-345) — every one, or only c0 beside
    // dynamic ones — so a restart within session.timeout.ms replaces the member without a rebalance
    staticMembers: fc.constantFrom('none' as const, 'none' as const, 'none' as const, 'all' as const, 'first' as const),
  })
  .map((w) => {
    const consumers = ['c0', ...w.others.map((_, i) => `c${i + 1}`)];
    const sinkSpec = w.mode === 'offsets-in-sink' ? 'database:offsets-in-db' : w.sink;
    const produces = w.mode === 'exactly-once' || w.mode === 'consume-produce-no-transactions';
    const sinks: NonNullable<Scenario['sinks']> = [];
    const topics: Scenario['topics'] = [{ name: 'in', partitions: w.partitions }];
    if (produces) topics.push({ name: 'out', partitions: 1 });
    if (sinkSpec) {
      const [type, mode] = sinkSpec.split(':') as ['database' | 'http-api' | 'outbox', string];
      if (type === 'outbox') {
        topics.push({ name: 'outbox-events', partitions: 1 });
        sinks.push({ id: 'sink', type, topic: 'outbox-events' });
      } else sinks.push({ id: 'sink', type, mode });
    }
    const clients: Scenario['clients'] = [
      {
        id: 'source',
        type: 'producer',
        script: [
          {
            op: 'send',
            topic: 'in',
            key: 'k{i}',
            value: 'v{i}',
            headers: { event_id: 'e{i}' },
            count: w.records,
            at: 3500,
            ...(w.gapMs > 0 ? { delayMs: w.gapMs } : {}),
          },
        ],
      },
    ];
    consumers.forEach((id, i) => {
      clients.push({
        id,
        type: 'consumer',
        config: {
          'group.id': 'g',
          'auto.offset.reset': 'earliest',
          'enable.auto.commit': w.mode === 'auto-commit',
          'isolation.level': 'read_committed',
          'session.timeout.ms': w.sessionTimeoutMs,
          'heartbeat.interval.ms': 1000,
          'max.poll.interval.ms': w.maxPollIntervalMs,
          'auto.commit.interval.ms': w.autoCommitIntervalMs,
          'max.poll.records': pollRecordsWithinInterval(
            w.maxPollRecords,
            i === 0 ? w.processingMs : Math.min(w.processingMs, 20),
            w.maxPollIntervalMs,
          ),
          'request.timeout.ms': 5000,
          ...(w.staticMembers === 'all' || (w.staticMembers === 'first' && i === 0) ? { 'group.instance.id': id } : {}),
        },
        topics: ['in'],
        processing: {
          mode: w.mode,
          // c0 may be slow: the others come and go while it works through its batch
          processingMs: i === 0 ? w.processingMs : Math.min(w.processingMs, 20),
          ...(sinkSpec ? { sink: 'sink' } : {}),
          ...(produces ? { outputTopic: 'out' } : {}),
          ...(produces ? { producerConfig: { 'request.timeout.ms': 5000 } } : {}),
        },
        ...(i > 0 ? { startAt: w.others[i - 1] } : {}),
      });
    });
    const f = w.fault;
    const faults: FaultSpec[] = [];
    const target = (t: string) => (t === 'c1' && consumers.length === 1 ? 'c0' : t === 'sink' && sinks.length === 0 ? 'c0' : t);
    if (f.kind === 'drop') faults.push({ type: 'drop', rpc: f.rpc, nth: f.nth });
    else if (f.kind === 'delay') faults.push({ type: 'delay', rpc: f.rpc, nth: f.nth, delayMs: f.delayMs });
    else if (f.kind === 'reset') faults.push({ type: 'reset', rpc: f.rpc, nth: f.nth });
    else if (f.kind === 'restart') faults.push({ type: 'crash', target: target(f.target), at: f.at, durationMs: f.durationMs });
    else if (f.kind === 'pause') faults.push({ type: 'pause', target: target(f.target), at: f.at, durationMs: f.durationMs });
    else if (f.kind === 'point')
      faults.push({ type: 'crash', target: target(f.target), point: f.point, nth: f.nth, durationMs: f.durationMs });
    else if (consumers.length > 1) faults.push({ type: 'crash', target: 'c1', at: f.at });
    const consumerCrash = faults.some((x) => x.type === 'crash' && (x.target === 'c0' || x.target === 'c1'));
    const scenario: Scenario = {
      version: 1,
      seed: w.seed,
      cluster: { 'transaction.version': w.transactionVersion, 'transaction.partition.verification.enable': w.verification },
      topics,
      clients,
      ...(sinks.length ? { sinks } : {}),
      ...(faults.length ? { faults } : {}),
      run: { maxTimeMs: 180000, maxSteps: 30000 },
    };
    const running = consumers.filter((id) => !(f.kind === 'leave' && id === 'c1'));
    return {
      scenario,
      expect: {
        kind: 'groups' as const,
        records: w.records,
        mode: w.mode,
        consumers: running,
        mayLose: w.mode === 'at-most-once' && consumerCrash,
      },
    };
  });

/** What did not hold at the end of a `group-faults` run. */
/** Partitions whose last committed offset was written by a late OffsetCommit (one that outlived its connection). */
function partitionsLastCommittedLate(trace: Trace): Set<string> {
  const late = lateOffsetCommitSteps(trace);
  const last = new Map<string, boolean>();
  for (const s of trace.steps)
    for (const f of s.facts as { kind: string; offsets?: { topic: string; partition: number }[] }[])
      if (f.kind === 'offsetsCommitted') for (const o of f.offsets ?? []) last.set(keyOf(o), late.has(s.i));
  return new Set([...last].filter(([, wasLate]) => wasLate).map(([tp]) => tp));
}

/**
 * Static members fenced by a JoinGroup of their own that they had given up on: the request timed out
 * on the client (REQUEST_TIMED_OUT, its connection closed), the client joined again, and the old
 * request, delayed in the network, reached the coordinator after — a join with no member id and the
 * same group.instance.id, so the coordinator replaced the live member
 * (GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin → ClassicGroup.replaceStaticMember)
 * and answered its waiting JoinGroup FENCED_INSTANCE_ID, fatal for the client
 * (AbstractCoordinator.JoinGroupResponseHandler raises FencedInstanceIdException). Kafka's rule, not
 * the model's: such a consumer stops for good, and the member left behind expires at its session
 * timeout. The fuzzer found it (group-faults seed 1293743446: the first JoinGroup delayed 15.1 s, past
 * the join's request timeout of max.poll.interval.ms + 5 s).
 */
export function fencedByOwnStaleJoin(trace: Trace): { readonly clients: Set<string>; readonly orphans: Set<string> } {
  const fenced = new Set<string>();
  // the member ids the stale joins created: nobody uses them, and they stay until their session expires
  const orphans = new Set<string>();
  for (const s of trace.steps) {
    if (s.envelope === null || !s.facts.some((f) => f.kind === 'staticMemberReplaced')) continue;
    const stale = staleJoin(trace, trace.envelopes.at(s.envelope), s.i);
    if (!stale) continue;
    fenced.add(stale.client);
    for (const f of s.facts) if (f.kind === 'staticMemberReplaced') orphans.add((f as unknown as { newMemberId: string }).newMemberId);
  }
  return { clients: fenced, orphans };
}

export function groupFaultProblems(trace: Trace, summary: TraceSummary, expected: GroupFaultsExpectation): string[] {
  const problems: string[] = [];
  // a consumer fenced by its own stale JoinGroup stops for good: the others must carry on without it
  const { clients: fenced, orphans } = fencedByOwnStaleJoin(trace);
  const consumers = expected.consumers.filter((id) => !fenced.has(id));
  const e: GroupFaultsExpectation = fenced.size
    ? { ...expected, consumers, mayLose: expected.mayLose || consumers.length === 0 }
    : expected;
  if (fenced.size && consumers.length === 0) {
    // nobody is left to read: the group holds at most the members the stale joins left behind (Empty
    // once their sessions expire, which the run may end before)
    const group = summary.groups.find((g) => g.groupId === 'g');
    if (trace.stopReason !== 'quiescent') problems.push(`the run did not settle: it stopped on ${trace.stopReason} at ${trace.endTime} ms`);
    const others = (group?.members ?? []).filter((m) => !orphans.has(m));
    if (others.length) problems.push(`group g ends with ${others.join(', ')}, with every consumer fenced`);
    problems.push(...groupRuleProblems(trace));
    const violations = checkInvariants(trace, { everyStep: false });
    if (violations.length) problems.push(`invariants broken: ${formatViolations(violations)}`);
    return problems;
  }
  if (trace.stopReason !== 'quiescent') problems.push(`the run did not settle: it stopped on ${trace.stopReason} at ${trace.endTime} ms`);
  const end = stateAt(trace, trace.steps.length);
  const stopped = e.consumers.filter((id) => String(end.actors.get(`${id}.app`)?.value) === 'stopped');
  for (const id of stopped)
    problems.push(`application ${id} stopped (${(end.actors.get(`${id}.app`)?.context as { stopped?: string }).stopped})`);
  const group = summary.groups.find((g) => g.groupId === 'g');
  if (group?.state !== 'Stable') problems.push(`group g ends ${group?.state ?? 'unknown'}, not Stable`);
  // member ids are the client's process (a static member's: its group.instance.id, here the same) and a counter
  const members = [...(group?.members ?? [])].map((m) => m.replace(/-\d+$/, '')).sort();
  if (JSON.stringify(members) !== JSON.stringify([...e.consumers].sort()))
    problems.push(`group g ends with members ${JSON.stringify(group?.members ?? [])}, not one for each of ${e.consumers.join(', ')}`);
  for (const id of e.consumers) {
    const state = summary.consumers.find((c) => c.id === id)?.state;
    if (membershipState(state ?? '') !== 'STABLE') problems.push(`consumer ${id} ends ${state}`);
  }
  const processed = (eventId: string) =>
    Object.values(summary.verdict.events.find((x) => x.eventId === eventId)?.processed ?? {}).reduce((n, k) => n + k, 0);
  const inputs = summary.partitions.filter((p) => p.topic === 'in');
  if (!e.mayLose) {
    for (let i = 0; i < e.records; i++) if (processed(`e${i}`) < 1) problems.push(`e${i} was never processed`);
    if (e.mode === 'offsets-in-sink') {
      const stored = (end.actors.get('sink')?.context as { offsets?: Record<string, number> } | undefined)?.offsets ?? {};
      for (const p of inputs)
        if (p.logEndOffset > 0 && (stored[`in-${p.partition}`] ?? 0) !== p.logEndOffset)
          problems.push(
            `the database stores offset ${stored[`in-${p.partition}`] ?? 'none'} for in-${p.partition}, whose log ends at ${p.logEndOffset}`,
          );
    } else {
      const slack = e.mode === 'commit-last-processed' ? 1 : 0;
      const lastByLateCommit = partitionsLastCommittedLate(trace);
      for (const p of inputs) {
        const committed = group?.committed[`in-${p.partition}`] ?? 0;
        // an OffsetCommit that landed after its client had closed the connection may set the
        // committed offset back, and Kafka applies it (invariants.ts, committed-offsets-monotonic)
        if (lastByLateCommit.has(`in-${p.partition}`)) continue;
        if (p.logEndOffset > 0 && committed < p.logEndOffset - slack)
          problems.push(`group g committed ${committed} on in-${p.partition}, whose log ends at ${p.logEndOffset}`);
      }
    }
  }
  if (e.mode === 'exactly-once') {
    const out = summary.partitions.find((p) => p.topic === 'out')?.records.filter((r) => r.control === null) ?? [];
    const committed = out.filter((r) => r.txnOutcome === 'committed').map((r) => r.headers.event_id);
    const twice = committed.filter((id, i) => committed.indexOf(id) !== i);
    if (twice.length) problems.push(`committed output holds ${[...new Set(twice)].join(', ')} more than once`);
    // protocol v1: an EndTxn that reached the coordinator after its client had closed the connection
    // (its retry had already ended that transaction) ends whichever transaction of the same epoch is
    // open then — the next one, early: its records appended afterwards hang and its inputs' offsets
    // may commit without them (KAFKA-17754; v2's per-transaction epoch fences the late request)
    const tornByLateEndTxn = trace.resolved.scenario.cluster?.['transaction.version'] === 1 && lateRequestSteps(trace, 'EndTxn').size > 0;
    if (!tornByLateEndTxn) {
      if (committed.length !== e.records) problems.push(`${committed.length} committed outputs, not ${e.records}`);
      if (out.some((r) => r.txnOutcome === 'open')) problems.push('a transaction is left open on the output');
    }
  }
  if (e.mode === 'offsets-in-sink') {
    const rows = (end.actors.get('sink')?.context as { rows?: { eventId: string | null }[] } | undefined)?.rows ?? [];
    const ids = rows.map((r) => r.eventId);
    const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
    if (twice.length) problems.push(`the database applied ${[...new Set(twice)].join(', ')} twice (offsets-in-sink)`);
  }
  problems.push(...groupRuleProblems(trace));
  const violations = checkInvariants(trace, { everyStep: false });
  if (violations.length) problems.push(`invariants broken: ${formatViolations(violations)}`);
  return problems;
}
