/**
 * The log cleaner's walk over transactions (LogCleaner's CleanedTransactionMetadata): which data
 * batches belong to an aborted transaction, which markers may go, and which aborted-transaction
 * index entries the cleaned log keeps. One walk per pass, over the batches in offset order.
 */

import type { RecordBatch } from './recordBatch';
import type { AbortedTxn } from './transactionIndex';

interface OngoingAborted {
  readonly txn: AbortedTxn;
  /** lastObservedBatchOffset: a batch of this aborted transaction was read in this pass. */
  observed: boolean;
}

export class CleanedTransactions {
  /** The index entries of the cleaned range, by first offset (Kafka's PriorityQueue). */
  readonly #aborted: readonly AbortedTxn[];
  #next = 0;
  readonly #ongoingAborted = new Map<number, OngoingAborted>();
  readonly #ongoingCommitted = new Set<number>();
  /** The entries written to the cleaned segments' new transaction index (cleanedIndex). */
  readonly reindexed: AbortedTxn[] = [];

  constructor(index: Iterable<AbortedTxn>, upper: number) {
    this.#aborted = [...index].filter((t) => t.firstOffset < upper).sort((a, b) => a.firstOffset - b.firstOffset);
  }

  /** consumeAbortedTxnsUpTo: aborted transactions starting at or before `offset` are now ongoing. */
  #consumeUpTo(offset: number): void {
    for (let t = this.#aborted[this.#next]; t !== undefined && t.firstOffset <= offset; t = this.#aborted[++this.#next])
      if (!this.#ongoingAborted.has(t.producerId)) this.#ongoingAborted.set(t.producerId, { txn: t, observed: false });
  }

  /**
   * onBatchRead (Cleaner.shouldDiscardBatch): a data batch of an ongoing aborted transaction may be
   * discarded; a marker may be discarded when its transaction left nothing in this pass — an ABORT
   * whose aborted batches were not read (else it is kept and re-indexed), a COMMIT when no batch of
   * its transaction was read.
   */
  onBatchRead(b: RecordBatch): boolean {
    this.#consumeUpTo(b.lastOffset);
    if (!b.isControl) {
      const aborted = this.#ongoingAborted.get(b.producerId);
      if (aborted) {
        aborted.observed = true;
        return true;
      }
      if (b.isTransactional) this.#ongoingCommitted.add(b.producerId);
      return false;
    }
    // "An empty control batch was already cleaned, so it's safe to discard"
    if (b.records.length === 0) return true;
    if (b.controlType === 'ABORT') {
      const aborted = this.#ongoingAborted.get(b.producerId);
      this.#ongoingAborted.delete(b.producerId);
      if (aborted?.observed) {
        this.reindexed.push(aborted.txn);
        return false;
      }
      return true;
    }
    return !this.#ongoingCommitted.delete(b.producerId);
  }
}
