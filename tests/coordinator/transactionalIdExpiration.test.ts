/**
 * transactional.id.expiration.ms (TransactionStateManager.removeExpiredTransactionalIds, scheduled by
 * enableTransactionalIdExpiration every transaction.remove.expired.transaction.cleanup.interval.ms
 * from the coordinator's broker start): a transactional.id in Empty, CompleteCommit or CompleteAbort
 * (TransactionState.isExpirationAllowed) whose txnLastUpdateTimestamp <= now − expiration (shouldExpire)
 * gets a tombstone in __transaction_state and leaves the cache; afterwards the coordinator knows it no
 * more: AddPartitionsToTxn, AddOffsetsToTxn, EndTxn and a leader's verification answer
 * INVALID_PRODUCER_ID_MAPPING, InitProducerId hands out a new producer id. Driven on the machines.
 */
import { describe, expect, it } from 'vitest';
import { resolveClusterConfig } from '../../src/sim/config/clusterConfig';
import { hostedTxnCoordinatorMachine } from '../../src/sim/coordinator/hostedTxnCoordinator.machine';
import {
  EXPIRATION_CHECK,
  expirationTimerKey,
  isExpirationAllowed,
  removalRunAtOrAfter,
  shouldExpire,
} from '../../src/sim/coordinator/transactionalIdExpiration';
import { transactionCoordinatorMachine } from '../../src/sim/coordinator/transactionCoordinator.machine';
import { encodeTxnRecord, type TxnMetadata } from '../../src/sim/coordinator/transactionMetadata';
import { TXN_STATES } from '../../src/sim/coordinator/transactionState';
import type { TxnCoordinatorContext } from '../../src/sim/coordinator/txnCoordinatorContext';
import type { Effect } from '../../src/sim/kernel/effects';
import { validateScenario } from '../../src/sim/scenario/validate';
import { drive, inputOf } from '../machines/harness';
import { replyOf, txnRequest } from './txnRequests';

const EXPIRATION = { 'transactional.id.expiration.ms': 5000, 'transaction.remove.expired.transaction.cleanup.interval.ms': 1000 };

const scenario = (cluster: Record<string, unknown> = {}) => ({
  version: 1,
  seed: 1,
  cluster: { 'transaction.version': 1, ...EXPIRATION, ...cluster },
  topics: [{ name: 't', partitions: 1 }],
  clients: [{ id: 'p', type: 'producer', config: { 'transactional.id': 'tx' }, script: [] }],
});

type Timer = Extract<Effect, { type: 'timer' }>;
const expiryTimer = (fx: readonly Effect[]): Timer | undefined =>
  fx.find((e): e is Timer => e.type === 'timer' && e.key === expirationTimerKey('tx'));
const cancelsExpiry = (fx: readonly Effect[]) => fx.some((e) => e.type === 'cancel' && e.key === expirationTimerKey('tx'));
const transitions = (fx: readonly Effect[]) =>
  fx.flatMap((e) =>
    e.type === 'fact' && e.fact.kind === 'txnState'
      ? [`${(e.fact as unknown as { from: string }).from}>${(e.fact as unknown as { to: string }).to}`]
      : [],
  );
const expiryCheck = (now: number) => ({ type: EXPIRATION_CHECK, key: expirationTimerKey('tx'), data: { transactionalId: 'tx' }, now });

const initProducerId = (producerId = -1, producerEpoch = -1) =>
  txnRequest('InitProducerId', { transactionTimeoutMs: 60000, producerId, producerEpoch });
const ids = { producerId: 1000, producerEpoch: 0 };

/** The one-replica coordinator with `tx` registered (InitProducerId) at `at`. */
function registered(at = 100, cluster: Record<string, unknown> = {}) {
  const m = drive(transactionCoordinatorMachine, inputOf(scenario(cluster), 'txn-coordinator'));
  m.send({ type: 'boot' }, 0);
  const fx = m.send(initProducerId(), at);
  return { m, fx };
}

describe('the two broker configs (TransactionStateManagerConfig: INT, atLeast(1))', () => {
  it('default to Kafka’s 604800000 (7 days) and 3600000 (1 hour), and reach the coordinator', () => {
    const { config } = resolveClusterConfig({});
    expect(config['transactional.id.expiration.ms']).toBe(604800000);
    expect(config['transaction.remove.expired.transaction.cleanup.interval.ms']).toBe(3600000);
    const input = inputOf(scenario(), 'txn-coordinator') as {
      config: { transactionalIdExpirationMs: number; removeExpiredIntervalMs: number };
    };
    expect(input.config).toMatchObject({ transactionalIdExpirationMs: 5000, removeExpiredIntervalMs: 1000 });
  });

  it('refuse 0 and a fraction', () => {
    const { errors } = resolveClusterConfig({
      'transactional.id.expiration.ms': 0,
      'transaction.remove.expired.transaction.cleanup.interval.ms': 1.5,
    });
    expect(errors.map((e) => e.key).sort()).toEqual([
      'transaction.remove.expired.transaction.cleanup.interval.ms',
      'transactional.id.expiration.ms',
    ]);
    expect(validateScenario(scenario({ 'transactional.id.expiration.ms': 0 })).ok).toBe(false);
  });
});

describe('which transactional ids expire (isExpirationAllowed, shouldExpire) and when the runs are', () => {
  it('only Empty, CompleteCommit and CompleteAbort allow expiration; Ongoing, PrepareX, PrepareEpochFence and Dead do not', () => {
    expect(TXN_STATES.filter(isExpirationAllowed)).toEqual(['Empty', 'CompleteCommit', 'CompleteAbort']);
  });

  it('expired once the last update is at least the expiration old (txnLastUpdateTimestamp <= now − expiration)', () => {
    const m = { state: 'CompleteCommit' as const, txnLastUpdateTimestamp: 100 };
    expect(shouldExpire(m, 5099, 5000)).toBe(false);
    expect(shouldExpire(m, 5100, 5000)).toBe(true);
    expect(shouldExpire({ ...m, state: 'Ongoing' }, 1e9, 5000)).toBe(false);
  });

  it('the runs are at broker start + k × interval, k ≥ 1 (scheduler.schedule(…, interval, interval))', () => {
    expect(removalRunAtOrAfter(0, 1000, 5100)).toBe(6000);
    expect(removalRunAtOrAfter(0, 1000, 6000)).toBe(6000);
    expect(removalRunAtOrAfter(0, 1000, 0)).toBe(1000);
    expect(removalRunAtOrAfter(1234, 1000, 5100)).toBe(5234);
  });
});

describe('the one-replica coordinator expires an idle transactional.id', () => {
  it('registering tx at 100 arms its run at 6000 (the first run at or after 5100), as a background timer', () => {
    const { fx } = registered();
    expect(replyOf<{ producerId: number }>(fx, 'InitProducerIdResponse')?.producerId).toBe(1000);
    expect(expiryTimer(fx)).toMatchObject({ name: EXPIRATION_CHECK, delay: 5900, background: true });
  });

  it('with Kafka’s defaults the run is 7 days out, at the first hourly run after it', () => {
    const { fx } = registered(100, {
      'transactional.id.expiration.ms': 604800000,
      'transaction.remove.expired.transaction.cleanup.interval.ms': 3600000,
    });
    expect((expiryTimer(fx)?.delay ?? 0) + 100).toBe(608400000);
  });

  it('at the run: Empty → Dead, a tombstone (null value) appended to __transaction_state, tx gone from the cache', () => {
    const { m } = registered();
    const fx = m.send(expiryCheck(6000), 6000);
    expect(transitions(fx)).toEqual(['Empty>Dead']);
    const ctx = m.context<TxnCoordinatorContext>();
    expect(ctx.txns.tx).toBeUndefined();
    const records = Object.values(ctx.logs).flatMap((l) => [...l.batches].flatMap((b) => b.records));
    expect(records.filter((r) => r.key === 'tx').map((r) => r.value === null)).toEqual([false, true]);
  });

  it('an id updated since its run was armed is not expired: its run is armed again for the new deadline', () => {
    const { m } = registered();
    m.send(initProducerId(1000, 0), 3000);
    const fx = m.send(expiryCheck(6000), 6000);
    expect(transitions(fx)).toEqual([]);
    expect(m.context<TxnCoordinatorContext>().txns.tx?.producerEpoch).toBe(1);
    expect(expiryTimer(fx)?.delay).toBe(8000 - 6000);
  });

  it('an Ongoing transaction never expires: AddPartitionsToTxn cancels the run, and a run that comes anyway finds nothing', () => {
    const { m } = registered();
    const added = m.send(txnRequest('AddPartitionsToTxn', { ...ids, partitions: [{ topic: 't', partition: 0 }], verifyOnly: false }), 200);
    expect(cancelsExpiry(added)).toBe(true);
    const fx = m.send(expiryCheck(60000), 60000);
    expect(fx).toEqual([]);
    expect(m.context<TxnCoordinatorContext>().txns.tx?.state).toBe('Ongoing');
  });

  it('once expired, AddPartitionsToTxn, AddOffsetsToTxn, EndTxn and a leader’s verification answer INVALID_PRODUCER_ID_MAPPING', () => {
    const { m } = registered();
    m.send(expiryCheck(6000), 6000);
    const partitions = [{ topic: 't', partition: 0 }];
    const add = m.send(txnRequest('AddPartitionsToTxn', { ...ids, partitions, verifyOnly: false }), 7000);
    expect(replyOf<{ error: string }>(add, 'AddPartitionsToTxnResponse')?.error).toBe('INVALID_PRODUCER_ID_MAPPING');
    const offsets = m.send(txnRequest('AddOffsetsToTxn', { ...ids, groupId: 'g' }), 7001);
    expect(replyOf<{ error: string }>(offsets, 'AddOffsetsToTxnResponse')?.error).toBe('INVALID_PRODUCER_ID_MAPPING');
    const end = m.send(txnRequest('EndTxn', { ...ids, committed: true }), 7002);
    expect(replyOf<{ error: string }>(end, 'EndTxnResponse')?.error).toBe('INVALID_PRODUCER_ID_MAPPING');
    const verify = m.send(txnRequest('AddPartitionsToTxn', { ...ids, partitions, verifyOnly: true }), 7003);
    expect(replyOf<{ error: string; partitions: { error: string }[] }>(verify, 'AddPartitionsToTxnResponse')).toMatchObject({
      error: 'INVALID_PRODUCER_ID_MAPPING',
      partitions: [{ error: 'INVALID_PRODUCER_ID_MAPPING' }],
    });
    expect(m.context<TxnCoordinatorContext>().txns.tx).toBeUndefined();
  });

  it('once expired, InitProducerId creates the id afresh with a new producer id — also the old producer’s own epoch bump', () => {
    const { m } = registered();
    m.send(expiryCheck(6000), 6000);
    const bump = m.send(initProducerId(1000, 0), 7000);
    expect(replyOf(bump, 'InitProducerIdResponse')).toMatchObject({ error: 'NONE', producerId: 1001, producerEpoch: 0 });
    expect(transitions(bump)).toEqual(['(new)>Empty']);
  });

  it('a restarted coordinator counts its runs from its restart, and a load drops an id at its tombstone', () => {
    const { m } = registered();
    m.send({ type: 'crash' }, 50 + 100);
    m.send({ type: 'restart' }, 1234);
    const loaded = m.send({ type: 'loaded', key: 'load' }, 1284);
    expect(m.context<TxnCoordinatorContext>().txns.tx?.state).toBe('Empty');
    // last update 100: due 5100, the restarted broker's runs are at 2234, 3234, 4234, 5234
    expect((expiryTimer(loaded)?.delay ?? 0) + 1284).toBe(5234);
    m.send(expiryCheck(5234), 5234);
    m.send({ type: 'crash' }, 5300);
    m.send({ type: 'restart' }, 5400);
    const again = m.send({ type: 'loaded', key: 'load' }, 5450);
    expect(m.context<TxnCoordinatorContext>().txns.tx).toBeUndefined();
    expect(expiryTimer(again)).toBeUndefined();
  });
});

/** broker-0's coordinator of a two-broker cluster, __transaction_state on two replicas in one partition. */
function hosted() {
  const s = {
    ...scenario({
      brokers: 2,
      'transaction.state.log.replication.factor': 2,
      'transaction.state.log.num.partitions': 1,
    }),
  };
  const m = drive(hostedTxnCoordinatorMachine, inputOf(s, 'broker-0.txn-coordinator'));
  const idle: TxnMetadata = {
    transactionalId: 'tx',
    producerId: 1000,
    producerEpoch: 0,
    lastProducerEpoch: -1,
    txnTimeoutMs: 60000,
    state: 'CompleteCommit',
    partitions: [],
    txnStartTimestamp: 50,
    txnLastUpdateTimestamp: 100,
  };
  return { m, idle };
}

function loadedWith(records: { key: string; value: string | null }[]) {
  const { m, idle } = hosted();
  m.send({ type: 'becomeCoordinator', args: { partition: 0, coordinatorEpoch: 1, records } }, 150);
  const fx = m.send({ type: 'partitionLoaded', key: 'load:0', data: { partition: 0, coordinatorEpoch: 1 } }, 200);
  return { m, idle, fx };
}

const appendCall = (fx: readonly Effect[]) =>
  fx.find((e): e is Extract<Effect, { type: 'call' }> => e.type === 'call' && e.name === 'appendTxnState');

describe('the hosted coordinator writes the tombstone to the __transaction_state leader (acks=-1)', () => {
  const loadedIdle = () => {
    const { m, idle } = hosted();
    return { ...loadedWith([{ key: 'tx', value: encodeTxnRecord(idle) }]), idle, m0: m };
  };

  it('a load arms the run of each idle id; at the run the tombstone goes to the host with request.timeout.ms, tx kept meanwhile', () => {
    const { m, fx } = loadedIdle();
    expect((expiryTimer(fx)?.delay ?? 0) + 200).toBe(6000);
    const run = m.send(expiryCheck(6000), 6000);
    expect(appendCall(run)?.args).toMatchObject({ key: 'tx', value: null, timeoutMs: 30000, partition: 0 });
    expect(m.context<TxnCoordinatorContext>().txns.tx?.state).toBe('CompleteCommit');
    expect(transitions(run)).toEqual([]);
  });

  it('while the tombstone is in flight a request for tx is refused CONCURRENT_TRANSACTIONS (a pending transition)', () => {
    const { m } = loadedIdle();
    m.send(expiryCheck(6000), 6000);
    const fx = m.send(initProducerId(1000, 0), 6001);
    expect(replyOf<{ error: string }>(fx, 'InitProducerIdResponse')?.error).toBe('CONCURRENT_TRANSACTIONS');
  });

  it('the write succeeded: CompleteCommit → Dead, tx leaves the cache', () => {
    const { m } = loadedIdle();
    const run = m.send(expiryCheck(6000), 6000);
    const writeId = appendCall(run)?.args?.writeId;
    const fx = m.send({ type: 'txnStateAppended', args: { writeId, error: 'NONE' } }, 6010);
    expect(transitions(fx)).toEqual(['CompleteCommit>Dead']);
    expect(m.context<TxnCoordinatorContext>().txns.tx).toBeUndefined();
  });

  it('the write failed: tx stays (the pending Dead cleared), and the next run, at 7000, tries again', () => {
    const { m } = loadedIdle();
    const run = m.send(expiryCheck(6000), 6000);
    const writeId = appendCall(run)?.args?.writeId;
    const fx = m.send({ type: 'txnStateAppended', args: { writeId, error: 'NOT_ENOUGH_REPLICAS' } }, 6010);
    expect(transitions(fx)).toEqual([]);
    expect(m.context<TxnCoordinatorContext>().txns.tx?.state).toBe('CompleteCommit');
    expect((expiryTimer(fx)?.delay ?? 0) + 6010).toBe(7000);
    const retry = m.send(expiryCheck(7000), 7000);
    expect(appendCall(retry)?.args).toMatchObject({ key: 'tx', value: null });
  });

  it('an id with another write in flight is skipped; if that write fails, the id is expired at the next run', () => {
    const { m } = loadedIdle();
    // InitProducerId's write (Empty, epoch 1, last update 5990) is in flight at the run of 6000
    const init = m.send(initProducerId(1000, 0), 5990);
    const run = m.send(expiryCheck(6000), 6000);
    expect(appendCall(run)).toBeUndefined();
    // as the write would leave it: due 10990, the run of 11000
    expect((expiryTimer(run)?.delay ?? 0) + 6000).toBe(11000);
    const failed = m.send(
      { type: 'txnStateAppended', args: { writeId: appendCall(init)?.args?.writeId, error: 'NOT_ENOUGH_REPLICAS' } },
      6100,
    );
    // back to CompleteCommit of 100: due since 5100, so the next run, 7000
    expect(m.context<TxnCoordinatorContext>().txns.tx?.txnLastUpdateTimestamp).toBe(100);
    expect((expiryTimer(failed)?.delay ?? 0) + 6100).toBe(7000);
  });

  it('a load replaying a tombstone drops the id', () => {
    const { idle } = hosted();
    const { m, fx } = loadedWith([
      { key: 'tx', value: encodeTxnRecord(idle) },
      { key: 'tx', value: null },
    ]);
    expect(m.context<TxnCoordinatorContext>().txns.tx).toBeUndefined();
    expect(expiryTimer(fx)).toBeUndefined();
  });
});
