/**
 * kafka-transactions.sh list, describe and find-hanging (sim/tools/listTransactions.ts,
 * describeTransaction.ts, findHangingTransactions.ts; TransactionsCommand, Kafka 4.0): the rules read in
 * TransactionStateManager.listTransactionStates (Dead left out, the producer id filter),
 * TransactionCoordinator.handleDescribeTransactions / DescribeTransactionsHandler (not found, Dead,
 * a negative start time is None, the partitions of Prepare* are those still waiting for a marker) and
 * FindHangingTransactionsCommand (candidates older than the bound, strictly; hanging when no
 * transactional id owns the producer id or its transaction does not list the partition) — each called
 * directly, then on the presets whose story they tell.
 */
import { describe, expect, it } from 'vitest';
import type { TxnMetadata } from '../../src/sim/coordinator/transactionMetadata';
import { findPreset, PRESETS } from '../../src/sim/presets';
import { runScenario, type SimView, stateAt, type Trace } from '../../src/sim/run';
import {
  DESCRIBE_TRANSACTIONS_HEADERS,
  describeTransaction,
  describeTransactionAt,
  describeTransactionText,
} from '../../src/sim/tools/describeTransaction';
import { FIND_HANGING_HEADERS, findHanging, findHangingAt, findHangingText } from '../../src/sim/tools/findHangingTransactions';
import { listTransactions, listTransactionsAt, listTransactionsText, runsLongerThan } from '../../src/sim/tools/listTransactions';
import { prettyPrintTable } from '../../src/sim/tools/prettyPrintTable';
import { coordinatorFor, type TxnCoordinatorView, txnCoordinators } from '../../src/sim/trace/coordinatorTxns';
import { verdictAtStep } from '../../src/sim/trace/summary';

const txn = (transactionalId: string, over: Partial<TxnMetadata> = {}): TxnMetadata => ({
  transactionalId,
  producerId: 1000,
  producerEpoch: 0,
  lastProducerEpoch: -1,
  txnTimeoutMs: 60000,
  state: 'Ongoing',
  partitions: ['orders-0'],
  txnStartTimestamp: 10,
  txnLastUpdateTimestamp: 10,
  ...over,
});

const coordinator = (over: Partial<TxnCoordinatorView> & Pick<TxnCoordinatorView, 'txns'>): TxnCoordinatorView => ({
  actor: 'txn-coordinator',
  coordinatorId: 'txn-coordinator',
  answers: true,
  owned: null,
  transactionStatePartitions: 1,
  ...over,
});

const traceOf = (id: string): Trace => runScenario(findPreset(id)?.scenario ?? {});
const last = (trace: Trace): SimView => stateAt(trace, trace.steps.length);

/** The view with one actor's context changed (a state the runs do not reach at will). */
function withContext(view: SimView, actor: string, change: (ctx: Record<string, unknown>) => Record<string, unknown>): SimView {
  const actors = new Map(view.actors);
  const snap = actors.get(actor);
  if (!snap) throw new Error(`no ${actor}`);
  actors.set(actor, { ...snap, context: change(snap.context as Record<string, unknown>) });
  return { ...view, actors };
}

describe('ToolsUtils.prettyPrintTable', () => {
  it('pads each column to its widest cell, header included, and ends every cell with a tab', () => {
    expect(
      prettyPrintTable(
        ['A', 'Longer'],
        [
          ['wide cell', 'x'],
          ['b', ''],
        ],
      ),
    ).toBe('A        \tLonger\t\nwide cell\tx     \t\nb        \t      \t');
  });
});

describe('kafka-transactions.sh list (ListTransactions)', () => {
  it('leaves Dead out, filters by producer id, and lists each coordinator by transactional id', () => {
    const a = coordinator({
      actor: 'broker-1.txn-coordinator',
      coordinatorId: '1',
      owned: new Map(),
      txns: [txn('zeta', { producerId: 3 }), txn('alpha', { producerId: 2, state: 'CompleteCommit' }), txn('gone', { state: 'Dead' })],
    });
    const b = coordinator({
      actor: 'broker-0.txn-coordinator',
      coordinatorId: '0',
      owned: new Map(),
      txns: [txn('mid', { producerId: 4 })],
    });
    const all = listTransactions([b, a]);
    expect(all).toEqual({
      kind: 'listed',
      rows: [
        { transactionalId: 'mid', coordinator: '0', producerId: 4, state: 'Ongoing' },
        { transactionalId: 'alpha', coordinator: '1', producerId: 2, state: 'CompleteCommit' },
        { transactionalId: 'zeta', coordinator: '1', producerId: 3, state: 'Ongoing' },
      ],
    });
    const some = listTransactions([b, a], { producerIds: new Set([3, 4]) });
    expect(some.kind === 'listed' && some.rows.map((r) => r.transactionalId)).toEqual(['mid', 'zeta']);
  });

  it('fails when no coordinator can answer; leaves a down one out otherwise', () => {
    const down = coordinator({ answers: false, txns: [txn('x')] });
    expect(listTransactions([down])).toEqual({ kind: 'unavailable' });
    expect(listTransactionsText({ kind: 'unavailable' })).toBe(
      'Failed to list transactions: …. Enable debug logging for additional detail.',
    );
    const up = coordinator({ actor: 'broker-0.txn-coordinator', coordinatorId: '0', owned: new Map(), txns: [txn('y')] });
    const r = listTransactions([down, up]);
    expect(r.kind === 'listed' && r.rows.map((x) => x.transactionalId)).toEqual(['y']);
  });
});

describe('kafka-transactions.sh list --duration-filter (KIP-994: listTransactionStates’ DurationFilter)', () => {
  // TransactionStateManagerTest.testListTransactionsFiltering: t0, t1 at 0; t2, t3 at 1000; t4–t7 at 2000; read at 3000
  const c = coordinator({
    txns: [
      txn('t0', { producerId: 0, txnStartTimestamp: 0 }),
      txn('t1', { producerId: 1, txnStartTimestamp: 0 }),
      txn('t2', { producerId: 2, state: 'PrepareCommit', txnStartTimestamp: 1000 }),
      txn('t3', { producerId: 3, state: 'PrepareAbort', txnStartTimestamp: 1000 }),
      txn('t4', { producerId: 4, state: 'CompleteCommit', txnStartTimestamp: 2000 }),
      txn('t5', { producerId: 5, state: 'CompleteAbort', txnStartTimestamp: 2000 }),
      txn('t6', { producerId: 6, state: 'CompleteAbort', txnStartTimestamp: 2000 }),
      txn('t7', { producerId: 7, state: 'PrepareEpochFence', txnStartTimestamp: 2000 }),
      txn('t8', { producerId: 8, state: 'Dead', txnStartTimestamp: 3000 }),
    ],
  });
  const ids = (durationFilterMs: number) => {
    const r = listTransactions([c], { durationFilterMs, now: 3000 });
    return r.kind === 'listed' ? r.rows.map((x) => x.transactionalId) : null;
  };

  it('keeps only transactions running longer than the filter, strictly; a negative filter keeps all but Dead', () => {
    expect(ids(-1)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7']);
    expect(ids(0)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7']);
    expect(ids(1000)).toEqual(['t0', 't1', 't2', 't3']);
    expect(ids(2000)).toEqual(['t0', 't1']);
    expect(ids(2999)).toEqual(['t0', 't1']);
    expect(ids(3000)).toEqual([]);
    expect(runsLongerThan({ txnStartTimestamp: 10 }, 90, 100)).toBe(false);
    expect(runsLongerThan({ txnStartTimestamp: 10 }, 89, 100)).toBe(true);
  });

  it('always lists an id that never started a transaction (txnStartTimestamp −1, decades old on a wall clock)', () => {
    const empty = coordinator({ txns: [txn('fresh', { state: 'Empty', partitions: [], txnStartTimestamp: -1 })] });
    const r = listTransactions([empty], { durationFilterMs: 1_000_000, now: 5 });
    expect(r.kind === 'listed' && r.rows.map((x) => x.transactionalId)).toEqual(['fresh']);
  });

  it('open-transaction-pins-lso: the long open transaction is listed once it has run longer than the filter', () => {
    const trace = traceOf('open-transaction-pins-lso');
    const view = stateAt(trace, Math.round(trace.steps.length * 0.5));
    const open = txnCoordinators(view)
      .flatMap((x) => x.txns)
      .find((m) => m.state === 'Ongoing');
    if (!open) throw new Error('no open transaction');
    const age = view.time - open.txnStartTimestamp;
    expect(age).toBeGreaterThan(0);
    const listedAt = (filter: number) => {
      const r = listTransactionsAt(view, filter);
      return r.kind === 'listed' && r.rows.some((x) => x.transactionalId === open.transactionalId);
    };
    expect(listedAt(age - 1)).toBe(true);
    expect(listedAt(age)).toBe(false);
    expect(listTransactionsText(listTransactionsAt(view, age))).not.toContain(open.transactionalId);
  });
});

describe('kafka-transactions.sh describe (DescribeTransactions)', () => {
  it('prints the coordinator’s metadata; a negative start time is None', () => {
    const c = coordinator({
      txns: [txn('orders-service-1', { partitions: ['orders-10', 'audit-0', 'orders-2'], txnStartTimestamp: 100 })],
    });
    const r = describeTransaction([c], 'orders-service-1', 350);
    expect(r).toMatchObject({
      kind: 'described',
      description: {
        coordinatorId: 'txn-coordinator',
        state: 'Ongoing',
        transactionStartTimeMs: 100,
        topicPartitions: ['audit-0', 'orders-2', 'orders-10'],
      },
    });
    const cells = describeTransactionText(r)
      .split('\n')
      .map((line) => line.split('\t').map((c) => c.trim()));
    expect(cells).toEqual([
      [...DESCRIBE_TRANSACTIONS_HEADERS, ''],
      ['txn-coordinator', 'orders-service-1', '1000', '0', 'Ongoing', '60000', '100', '250', 'audit-0,orders-2,orders-10', ''],
    ]);
    const empty = describeTransaction(
      [coordinator({ txns: [txn('t', { state: 'Empty', partitions: [], txnStartTimestamp: -1 })] })],
      't',
      5,
    );
    expect(
      describeTransactionText(empty)
        .split('\n')[1]
        ?.split('\t')
        .map((c) => c.trim())
        .slice(4, 8),
    ).toEqual(['Empty', '60000', 'None', 'None']);
  });

  it('an unknown or Dead transactional id is TRANSACTIONAL_ID_NOT_FOUND', () => {
    const c = coordinator({ txns: [txn('old', { state: 'Dead' })] });
    expect(describeTransaction([c], 'old', 0).kind).toBe('not-found');
    const r = describeTransaction([c], 'never', 0);
    expect(r.kind).toBe('not-found');
    expect(describeTransactionText(r)).toBe(
      'Failed to describe transaction state of transactional-id `never`: DescribeTransactions request for transactionalId `never` failed because the ID could not be found. Enable debug logging for additional detail.',
    );
  });

  it('asks the coordinator that leads the id’s __transaction_state partition and has loaded it', () => {
    // "orders-service-1" falls in partition 1 of 2 (Utils.abs(hashCode) % 2)
    const loading = coordinator({
      actor: 'broker-1.txn-coordinator',
      coordinatorId: '1',
      owned: new Map([[1, { loaded: false }]]),
      transactionStatePartitions: 2,
      txns: [],
    });
    const other = coordinator({
      actor: 'broker-0.txn-coordinator',
      coordinatorId: '0',
      owned: new Map([[0, { loaded: true }]]),
      transactionStatePartitions: 2,
      txns: [],
    });
    expect(coordinatorFor([other, loading], 'orders-service-1')).toBeNull();
    expect(describeTransaction([other, loading], 'orders-service-1', 0).kind).toBe('unavailable');
    const loaded = { ...loading, owned: new Map([[1, { loaded: true }]]), txns: [txn('orders-service-1')] };
    expect(coordinatorFor([other, loaded], 'orders-service-1')?.coordinatorId).toBe('1');
  });

  it('in PrepareCommit the partitions are those whose marker is not yet written', () => {
    const trace = traceOf('commit-two-partitions');
    const base = last(trace);
    const id = Object.keys((base.actors.get('txn-coordinator')?.context as { txns: Record<string, TxnMetadata> }).txns)[0] as string;
    const view = withContext(base, 'txn-coordinator', (ctx) => ({
      ...ctx,
      txns: { [id]: txn(id, { state: 'PrepareCommit', partitions: ['payments-0', 'ledger-0'] }) },
      markers: { [id]: { result: 'COMMIT', producerId: 1000, producerEpoch: 0, remaining: ['ledger-0'], inFlight: [] } },
    }));
    const r = describeTransactionAt(view, id);
    expect(r.kind === 'described' && r.description.topicPartitions).toEqual(['ledger-0']);
    expect(txnCoordinators(view)[0]?.txns[0]?.partitions).toEqual(['ledger-0']);
  });
});

describe('kafka-transactions.sh find-hanging', () => {
  it('hanging-transaction: the late batch’s transaction is open on orders-0 while its coordinator moved on — one hanging row', () => {
    const view = last(traceOf('hanging-transaction'));
    const r = findHangingAt(view, 'orders', 0, 0);
    expect(r).toMatchObject({
      kind: 'searched',
      candidates: 1,
      hanging: [{ why: 'partition-not-in-transaction', transactionalId: 'orders-service-1' }],
    });
    const [header, row] = findHangingText(r).split('\n');
    expect(header?.split('\t').map((c) => c.trim())).toEqual([...FIND_HANGING_HEADERS, '']);
    const cells = row?.split('\t').map((c) => c.trim()) ?? [];
    expect(cells.slice(0, 2)).toEqual(['orders', '0']);
    // Duration(min): whole minutes since the last write, 0 in a run of seconds
    expect(cells[7]).toBe('0');
    // the same open transaction is what describe-producers shows, at the LSO
    const coordinator = describeTransactionAt(view, 'orders-service-1');
    expect(coordinator.kind === 'described' && coordinator.description.topicPartitions).not.toContain('orders-0');
  });

  it('open-transaction-pins-lso: a long open transaction its coordinator knows is a candidate, not hanging', () => {
    const trace = traceOf('open-transaction-pins-lso');
    const view = stateAt(trace, Math.round(trace.steps.length * 0.5));
    const r = findHangingAt(view, 'events', 0, 0);
    expect(r).toMatchObject({ kind: 'searched', candidates: 1, hanging: [] });
    expect(findHangingText(r).split('\n')).toHaveLength(1);
  });

  it('candidates must be older than the bound, strictly', () => {
    const view = last(traceOf('hanging-transaction'));
    const r0 = findHangingAt(view, 'orders', 0, 0);
    if (r0.kind !== 'searched') throw new Error('searched');
    const age = view.time - (r0.hanging[0]?.producer.lastTimestamp ?? 0);
    // a bound of whole minutes: the run lasts less than one, so 1 minute leaves nothing to check
    expect(age).toBeLessThan(60000);
    expect(findHangingAt(view, 'orders', 0, 1)).toMatchObject({ kind: 'searched', candidates: 0, hanging: [] });
    // and the rule itself: exactly at the bound is not older than it
    const atBound = { ...view, time: (r0.hanging[0]?.producer.lastTimestamp ?? 0) + 60000 };
    expect(findHangingAt(atBound, 'orders', 0, 1)).toMatchObject({ candidates: 0 });
    expect(findHangingAt({ ...atBound, time: atBound.time + 1 }, 'orders', 0, 1)).toMatchObject({ candidates: 1 });
    // a negative bound (argparse4j takes any Integer) makes every open transaction a candidate
    expect(findHangingAt({ ...atBound, time: (r0.hanging[0]?.producer.lastTimestamp ?? 0) - 1 }, 'orders', 0, -1)).toMatchObject({
      candidates: 1,
    });
  });

  it('a producer id no transactional id owns hangs; a transaction that lists the partition does not', () => {
    const base = last(traceOf('hanging-transaction'));
    const forgotten = withContext(base, 'txn-coordinator', (ctx) => ({ ...ctx, txns: {} }));
    expect(findHangingAt(forgotten, 'orders', 0, 0)).toMatchObject({ hanging: [{ why: 'no-transactional-id', transactionalId: null }] });
    const listing = withContext(base, 'txn-coordinator', (ctx) => {
      const txns = ctx.txns as Record<string, TxnMetadata>;
      const m = txns['orders-service-1'] as TxnMetadata;
      return { ...ctx, txns: { ...txns, 'orders-service-1': { ...m, state: 'Ongoing', partitions: ['orders-0'] } } };
    });
    expect(findHangingAt(listing, 'orders', 0, 0)).toMatchObject({ candidates: 1, hanging: [] });
  });

  it('fails as the tool does when the leader or every coordinator cannot answer', () => {
    const base = last(traceOf('hanging-transaction'));
    const processes = (down: string) => new Map([...base.processes].map(([p, s]) => [p, p === down ? { ...s, down: true } : s] as const));
    const leaderDown = findHangingAt({ ...base, processes: processes('broker-0') }, 'orders', 0, 0);
    expect(findHangingText(leaderDown)).toBe(
      'Failed to describe producers for 1 partitions on broker Optional.empty: …. Enable debug logging for additional detail.',
    );
    const coordinatorDown = findHangingAt({ ...base, processes: processes('txn-coordinator') }, 'orders', 0, 0);
    expect(findHangingText(coordinatorDown)).toBe(
      'Failed to list transactions for 1 producers: …. Enable debug logging for additional detail.',
    );
    expect(listTransactionsAt({ ...base, processes: processes('txn-coordinator') })).toEqual({ kind: 'unavailable' });
  });

  it('agrees with the verdict on every preset with a read_committed reader: a stall it calls hanging is listed, one the coordinator tracks is not', () => {
    let stalls = 0;
    let hangingStalls = 0;
    for (const preset of PRESETS) {
      const text = JSON.stringify(preset.scenario);
      if (!text.includes('read_committed') && !text.includes('exactly_once_v2')) continue;
      const trace = runScenario(preset.scenario);
      for (const at of [0.5, 0.8, 1]) {
        const view = stateAt(trace, Math.round(trace.steps.length * at));
        for (const layer of verdictAtStep(trace, view).layers)
          for (const stall of 'stalls' in layer ? layer.stalls : []) {
            stalls++;
            const r = findHangingAt(view, stall.topic, stall.partition, 0);
            const listed = r.kind === 'searched' && r.hanging.some((h) => h.producer.producerId === stall.producerId);
            // a transaction that has ended, its marker not yet below the high watermark, is no candidate
            const hanging = stall.hanging && stall.marker === undefined;
            if (hanging) hangingStalls++;
            expect({ preset: preset.id, at, partition: `${stall.topic}-${stall.partition}`, listed }).toEqual({
              preset: preset.id,
              at,
              partition: `${stall.topic}-${stall.partition}`,
              listed: hanging,
            });
          }
      }
    }
    // the presets hold both kinds: hanging-transaction's, and open transactions the coordinator tracks
    expect(hangingStalls).toBeGreaterThan(0);
    expect(stalls).toBeGreaterThan(hangingStalls);
  }, 120000);
});

describe('kafka-transactions.sh find-hanging over a topic or a broker (collectTopicPartitionsToSearch, hasReplica)', () => {
  it('a whole topic searches each of its partitions; a topic that does not exist fails describeTopics', () => {
    const view = last(traceOf('hanging-transaction'));
    const one = findHangingAt(view, 'orders', 0, 0);
    const topic = findHanging(view, { topic: 'orders' }, 0);
    expect(topic).toMatchObject({ kind: 'searched', partitions: 1, candidates: 1 });
    expect(findHangingText(topic)).toBe(findHangingText(one));
    expect(topic.kind === 'searched' && topic.hanging.map((h) => `${h.topic}-${h.partition}`)).toEqual(['orders-0']);
    expect(findHangingText(findHanging(view, { topic: 'nope' }, 0))).toBe(
      'Failed to describe 1 topics: This server does not host this topic-partition.. Enable debug logging for additional detail.',
    );
  });

  it('a broker searches every partition with a replica on it, internal topics included, reading its own replica', () => {
    // transaction-state-under-replicated: payments-0 and __transaction_state-0 on brokers 0, 1, 2 (RF 3)
    const trace = traceOf('transaction-state-under-replicated');
    // step 84: the leader (broker 0) holds an open transaction its followers have not fetched yet
    const view = stateAt(trace, 84);
    const onLeader = findHanging(view, { brokerId: 0 }, 0);
    expect(onLeader).toMatchObject({ kind: 'searched', partitions: 2, candidates: 1 });
    const onFollower = findHanging(view, { brokerId: 1 }, 0);
    expect(onFollower).toMatchObject({ kind: 'searched', partitions: 2, candidates: 0 });
    // with a topic, only its partitions on that broker; a broker with no replica searches nothing
    expect(findHanging(view, { brokerId: 0, topic: 'payments' }, 0)).toMatchObject({ partitions: 1, candidates: 1 });
    expect(findHanging(view, { brokerId: 7 }, 0)).toMatchObject({ kind: 'searched', partitions: 0, candidates: 0, hanging: [] });
    // the coordinator tracks that transaction: a candidate, not hanging
    expect(onLeader.kind === 'searched' && onLeader.hanging).toEqual([]);
    // a broker that is down fails DescribeProducers, named by its Optional
    const end = last(trace);
    expect(findHangingText(findHanging(end, { brokerId: 2 }, 0))).toBe(
      'Failed to describe producers for 2 partitions on broker Optional[2]: …. Enable debug logging for additional detail.',
    );
  });

  it('--broker-id with --partition reads that broker’s replica, and fails when it holds none', () => {
    const view = last(traceOf('hanging-transaction'));
    expect(findHangingText(findHanging(view, { topic: 'orders', partition: 0, brokerId: 0 }, 0))).toBe(
      findHangingText(findHangingAt(view, 'orders', 0, 0)),
    );
    expect(findHangingText(findHanging(view, { topic: 'orders', partition: 0, brokerId: 3 }, 0))).toBe(
      'Failed to describe producers for 1 partitions on broker Optional[3]: …. Enable debug logging for additional detail.',
    );
    const actors = new Map(view.actors);
    actors.set('broker-3', { value: 'up', context: { partitions: {} } });
    expect(findHangingText(findHanging({ ...view, actors }, { topic: 'orders', partition: 0, brokerId: 3 }, 0))).toBe(
      'Failed to describe producers for 1 partitions on broker Optional[3]: Failed to describe active producers for partition orders-0 on brokerId 3. Enable debug logging for additional detail.',
    );
  });
});
