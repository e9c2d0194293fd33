/**
 * InitProducerId: an invalid transaction.timeout.ms is refused before the transactional.id is looked
 * up. Kafka: TransactionCoordinator.handleInitProducerId checks `txnManager.validateTransactionTimeoutMs`
 * (0 < timeout ≤ transaction.max.timeout.ms) → INVALID_TRANSACTION_TIMEOUT, and only then
 * `getTransactionState` (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS) and the pending transition
 * (CONCURRENT_TRANSACTIONS). On the old model a loading coordinator answered
 * COORDINATOR_LOAD_IN_PROGRESS first, so the fatal error came one retry later.
 */
import { describe, expect, it } from 'vitest';
import { hostedTxnCoordinatorMachine } from '../../src/sim/coordinator/hostedTxnCoordinator.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { runScenario } from '../../src/sim/run';
import { drive, inputOf } from '../machines/harness';

/** transaction.timeout.ms above the coordinator's transaction.max.timeout.ms (900000 by default) */
const TOO_LONG = 1_000_000;

const initProducerId = (transactionTimeoutMs: number) => ({
  type: 'InitProducerId',
  from: 'p.producer',
  envelopeId: 1,
  inReplyTo: null,
  payload: { correlationId: 1, transactionalId: 'tx', transactionTimeoutMs },
});
const answers = (fx: readonly Effect[]) =>
  fx.flatMap((e) => (e.type === 'send' && e.rpc === 'InitProducerIdResponse' ? [e.payload.error] : []));

describe('InitProducerId with an invalid transaction.timeout.ms', () => {
  it('a coordinator still loading its partition answers INVALID_TRANSACTION_TIMEOUT at once', () => {
    const trace = runScenario({
      version: 1,
      seed: 1,
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [
        {
          id: 'app',
          type: 'producer',
          startAt: 1000,
          config: { 'transactional.id': 'app-1', 'transaction.timeout.ms': TOO_LONG },
          script: [{ op: 'beginTransaction' }],
        },
      ],
      // the coordinator restarts at 985 and loads its transaction log until 1035
      faults: [{ type: 'crash', target: 'txn-coordinator', at: 980, durationMs: 5 }],
    });
    const errors: string[] = [];
    for (let i = 0; ; i++) {
      const s = trace.stepAt(i);
      if (!s) break;
      if (s.label === 'InitProducerIdResponse') errors.push(`${s.t} ${s.after}`);
    }
    expect(errors).toEqual([expect.stringMatching(/^1002 FATAL_ERROR/)]);
  });

  const hosted = (broker: string) =>
    drive(
      hostedTxnCoordinatorMachine,
      inputOf(
        {
          version: 1,
          seed: 1,
          cluster: { brokers: 2, 'transaction.state.log.replication.factor': 2, 'transaction.state.log.num.partitions': 1 },
          topics: [{ name: 'payments', partitions: 1 }],
          clients: [{ id: 'p', type: 'producer', config: { 'transactional.id': 'tx' }, script: [] }],
        },
        `${broker}.txn-coordinator`,
      ),
    );

  it('a hosted coordinator answers it before NOT_COORDINATOR and COORDINATOR_LOAD_IN_PROGRESS', () => {
    // broker-1 does not lead __transaction_state-0
    expect(answers(hosted('broker-1').send(initProducerId(TOO_LONG), 10))).toEqual(['INVALID_TRANSACTION_TIMEOUT']);
    expect(answers(hosted('broker-1').send(initProducerId(60000), 10))).toEqual(['NOT_COORDINATOR']);
    // broker-1 elected, loading
    const loading = () => {
      const m = hosted('broker-1');
      m.send({ type: 'becomeCoordinator', args: { partition: 0, coordinatorEpoch: 1, records: [] } }, 20);
      return m;
    };
    expect(answers(loading().send(initProducerId(TOO_LONG), 30))).toEqual(['INVALID_TRANSACTION_TIMEOUT']);
    expect(answers(loading().send(initProducerId(60000), 30))).toEqual(['COORDINATOR_LOAD_IN_PROGRESS']);
  });
});
