/**
 * How a partition leader answers a transactional Produce whose verification failed
 * (ReplicaManager.handleProduceAppend's mapping over AddPartitionsToTxnManager's): the model's
 * clients are 4.x — Produce v11 under protocol v1 (LAST_STABLE_VERSION_BEFORE_TRANSACTION_V2) and
 * v12+ under v2 — both past v10, so KafkaApis marks them `genericError` and TRANSACTION_ABORTABLE
 * is kept; only Produce ≤ v10 would see INVALID_TXN_STATE.
 */
import { describe, expect, it } from 'vitest';
import { verificationError } from '../src/sim/broker/produceRequest';

describe('verificationError', () => {
  it('a partition not in the transaction stays TRANSACTION_ABORTABLE (abortable on the client), not INVALID_TXN_STATE', () => {
    for (const v of [1, 2] as const) expect(verificationError('TRANSACTION_ABORTABLE', v)).toBe('TRANSACTION_ABORTABLE');
  });

  it('a fenced producer is INVALID_PRODUCER_EPOCH; an unknown producer id mapping stays as it is', () => {
    for (const v of [1, 2] as const) {
      expect(verificationError('PRODUCER_FENCED', v)).toBe('INVALID_PRODUCER_EPOCH');
      expect(verificationError('INVALID_PRODUCER_EPOCH', v)).toBe('INVALID_PRODUCER_EPOCH');
      expect(verificationError('INVALID_PRODUCER_ID_MAPPING', v)).toBe('INVALID_PRODUCER_ID_MAPPING');
    }
  });

  it('a coordinator that cannot answer now is NOT_ENOUGH_REPLICAS (retriable, no metadata refresh)', () => {
    for (const v of [1, 2] as const)
      for (const e of ['NETWORK_EXCEPTION', 'COORDINATOR_LOAD_IN_PROGRESS', 'COORDINATOR_NOT_AVAILABLE', 'NOT_COORDINATOR'] as const)
        expect(verificationError(e, v)).toBe('NOT_ENOUGH_REPLICAS');
  });

  it('CONCURRENT_TRANSACTIONS is NOT_ENOUGH_REPLICAS under protocol v1 and reaches a v2 client as it is', () => {
    expect(verificationError('CONCURRENT_TRANSACTIONS', 1)).toBe('NOT_ENOUGH_REPLICAS');
    expect(verificationError('CONCURRENT_TRANSACTIONS', 2)).toBe('CONCURRENT_TRANSACTIONS');
  });
});
