/**
 * Pending transactional offsets and the marker that ends them (OffsetMetadataManager
 * .replayEndTransactionMarker): COMMIT materialises a pending offset only if it was written after
 * the offset already committed for its partition; ABORT drops them; a producer with nothing
 * pending is ignored.
 */
import { describe, expect, it } from 'vitest';
import { emptyGroup } from '../../src/sim/coordinator/classicGroup';
import { addPendingTxnOffsets, commitPlainOffsets, completePendingTxnOffsets } from '../../src/sim/coordinator/groupOffsets';

describe('replayEndTransactionMarker (completePendingTxnOffsets)', () => {
  it('COMMIT materialises the pending offsets written after the committed ones', () => {
    let g = commitPlainOffsets(emptyGroup('g'), { 'orders-0': 5, 'orders-1': 2 });
    g = addPendingTxnOffsets(g, 7, { 'orders-0': 8 });
    const done = completePendingTxnOffsets(g, 7, 'COMMIT');
    expect(done?.materialised).toEqual({ 'orders-0': 8 });
    expect(done?.group.committed).toEqual({ 'orders-0': 8, 'orders-1': 2 });
    expect(done?.group.pending).toEqual([]);
  });

  it('a plain commit written between the TxnOffsetCommit and its COMMIT marker wins (the most recent record offset)', () => {
    let g = addPendingTxnOffsets(emptyGroup('g'), 7, { 'orders-0': 8, 'orders-1': 4 });
    g = commitPlainOffsets(g, { 'orders-0': 9 });
    const done = completePendingTxnOffsets(g, 7, 'COMMIT');
    expect(done?.materialised).toEqual({ 'orders-1': 4 });
    expect(done?.group.committed).toEqual({ 'orders-0': 9, 'orders-1': 4 });
  });

  it('a later TxnOffsetCommit of the same producer moves its offset after the plain commit again', () => {
    let g = addPendingTxnOffsets(emptyGroup('g'), 7, { 'orders-0': 8 });
    g = commitPlainOffsets(g, { 'orders-0': 9 });
    g = addPendingTxnOffsets(g, 7, { 'orders-0': 10 });
    expect(completePendingTxnOffsets(g, 7, 'COMMIT')?.group.committed).toEqual({ 'orders-0': 10 });
  });

  it('of two transactions, the one whose offset was written last wins, whichever commits last', () => {
    let g = addPendingTxnOffsets(emptyGroup('g'), 7, { 'orders-0': 8 });
    g = addPendingTxnOffsets(g, 9, { 'orders-0': 12 });
    g = (completePendingTxnOffsets(g, 9, 'COMMIT') as { group: typeof g }).group;
    const done = completePendingTxnOffsets(g, 7, 'COMMIT');
    expect(done?.materialised).toEqual({});
    expect(done?.group.committed).toEqual({ 'orders-0': 12 });
  });

  it('ABORT drops the pending offsets; a producer with none pending is ignored (null)', () => {
    let g = commitPlainOffsets(emptyGroup('g'), { 'orders-0': 5 });
    g = addPendingTxnOffsets(g, 7, { 'orders-0': 8 });
    const done = completePendingTxnOffsets(g, 7, 'ABORT');
    expect(done?.group.committed).toEqual({ 'orders-0': 5 });
    expect(done?.group.pending).toEqual([]);
    expect(completePendingTxnOffsets(g, 8, 'COMMIT')).toBeNull();
  });
});
