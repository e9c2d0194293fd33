/**
 * When the transaction coordinator looks for timed-out transactions. TransactionCoordinator.startup
 * schedules "transaction-abort" (abortTimedOutTransactions) at a fixed rate from the broker's start,
 * the first run one transaction.abort.timed.out.transaction.cleanup.interval.ms later
 * (`scheduler.schedule(…, interval, interval)`, KafkaScheduler → scheduleAtFixedRate). A broker that
 * started with the cluster runs at 0 + k × interval; a restarted one at restart + k × interval — so a
 * transaction that times out after a coordinator restart is aborted at the restarted broker's next
 * run, not at the cluster's.
 */
import { describe, expect, it } from 'vitest';
import { hostedTxnCoordinatorMachine } from '../../src/sim/coordinator/hostedTxnCoordinator.machine';
import type { TxnCoordinatorContext } from '../../src/sim/coordinator/transactionCoordinator.machine';
import { encodeTxnRecord, type TxnMetadata } from '../../src/sim/coordinator/transactionMetadata';
import type { Effect } from '../../src/sim/kernel/effects';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { drive, inputOf } from '../machines/harness';

/** transaction-timeout (transaction.timeout.ms 5000, its transaction starts at 3) with cleanup runs every second. */
function stalledTransaction(faults: Scenario['faults'] = []): Scenario {
  const preset = findPreset('transaction-timeout');
  if (!preset) throw new Error('transaction-timeout');
  return {
    ...preset.scenario,
    cluster: { ...preset.scenario.cluster, 'transaction.abort.timed.out.transaction.cleanup.interval.ms': 1000 },
    faults,
  };
}

/** Virtual time of each txnState transition, as "from>to@t". */
function transitions(scenario: Scenario): string[] {
  const trace = runScenario(scenario);
  return trace.steps.flatMap((s) =>
    s.facts.flatMap((f) => {
      const fact = f as { kind: string; from?: string; to?: string };
      return fact.kind === 'txnState' ? [`${fact.from}>${fact.to}@${s.t}`] : [];
    }),
  );
}

describe('the timeout scan runs at a fixed rate from its broker’s start', () => {
  it('started with the cluster: a transaction due at 5004 is fenced at the run of 6000', () => {
    expect(transitions(stalledTransaction())).toContain('Ongoing>PrepareEpochFence@6000');
  });

  it('the coordinator restarted at 1264: its runs are at 2264, 3264, … and the transaction is fenced at 5264', () => {
    const restarted = stalledTransaction([{ type: 'crash', target: 'txn-coordinator', at: 30, durationMs: 1234 }]);
    const seen = transitions(restarted);
    expect(seen).toContain('Ongoing>PrepareEpochFence@5264');
    expect(seen.filter((s) => s.startsWith('Ongoing>PrepareEpochFence'))).toHaveLength(1);
  });

  it('the hosted coordinator (a replicated __transaction_state) counts its runs from its broker’s restart', () => {
    const m = hostedCoordinator('broker-0');
    expect(m.context<TxnCoordinatorContext>().startedAtMs).toBeUndefined();
    m.send({ type: 'crash' }, 10);
    m.send({ type: 'restart' }, 1234);
    expect(m.context<TxnCoordinatorContext>().startedAtMs).toBe(1234);
    // overdue: checked at the restarted broker's first run, 1734 (1234 + 500), not at the cluster's 1500
    expect(loadOngoing(m, 1300, 1350)).toBe(1734 - 1350);
  });

  it('an overdue transaction loaded between two runs is checked at the next run, not at once', () => {
    // started with the cluster (runs at 500, 1000, …); the partition is loaded at 1800, due since 1201
    expect(loadOngoing(hostedCoordinator('broker-1'), 1750, 1800)).toBe(2000 - 1800);
  });
});

/** A broker's coordinator of a two-broker cluster with __transaction_state on two replicas, cleanup every 500 ms. */
function hostedCoordinator(broker: string) {
  const scenario = {
    version: 1,
    seed: 1,
    cluster: {
      brokers: 2,
      'transaction.state.log.replication.factor': 2,
      'transaction.abort.timed.out.transaction.cleanup.interval.ms': 500,
    },
    topics: [{ name: 'payments', partitions: 1 }],
    clients: [{ id: 'p', type: 'producer', config: { 'transactional.id': 'tx' }, script: [] }],
  };
  return drive(hostedTxnCoordinatorMachine, inputOf(scenario, `${broker}.txn-coordinator`));
}

/**
 * The coordinator comes to lead __transaction_state-0 at `electedAt` and finishes loading it at
 * `loadedAt`, finding an Ongoing transaction started at 200 with a 1000 ms timeout (due 1201): the
 * delay of the timeout check the load arms.
 */
function loadOngoing(m: ReturnType<typeof hostedCoordinator>, electedAt: number, loadedAt: number): number | undefined {
  const ongoing: TxnMetadata = {
    transactionalId: 'tx',
    producerId: 1000,
    producerEpoch: 0,
    lastProducerEpoch: -1,
    txnTimeoutMs: 1000,
    state: 'Ongoing',
    partitions: ['payments-0'],
    txnStartTimestamp: 200,
    txnLastUpdateTimestamp: 200,
  };
  m.send(
    { type: 'becomeCoordinator', args: { partition: 0, coordinatorEpoch: 1, records: [{ key: 'tx', value: encodeTxnRecord(ongoing) }] } },
    electedAt,
  );
  const loaded = m.send({ type: 'partitionLoaded', key: 'load:0', data: { partition: 0, coordinatorEpoch: 1 } }, loadedAt);
  return loaded.find((e): e is Extract<Effect, { type: 'timer' }> => e.type === 'timer' && e.name === 'txnTimeoutCheck')?.delay;
}
