/**
 * The transaction coordinators as the Admin client would reach them at a step: the fixed one-replica
 * `txn-coordinator`, or — with a replicated `__transaction_state` — each `broker-N.txn-coordinator`,
 * holding the transactional ids of the `__transaction_state` partitions its broker leads and has
 * loaded (TransactionStateManager.transactionMetadataCache). For the `kafka-transactions.sh` views.
 */
import type { TxnMetadata } from '../coordinator/transactionMetadata';
import type { ActorId } from '../kernel/envelope';
import { processOf } from '../kernel/faults';
import { coordinatorPartitionFor } from '../producer/partitioner';
import type { SimView } from './trace';

const isTxnCoordinator = (id: ActorId) => id === 'txn-coordinator' || id.endsWith('.txn-coordinator');

export interface TxnCoordinatorView {
  readonly actor: ActorId;
  /** The tool's CoordinatorId: the broker's id; the model's one-replica coordinator, a process of its own, by its name. */
  readonly coordinatorId: string;
  /** Its process is up and not paused: it answers. */
  readonly answers: boolean;
  /** The __transaction_state partitions it leads, and whether each is loaded (null: the fixed coordinator holds them all). */
  readonly owned: ReadonlyMap<number, { readonly loaded: boolean }> | null;
  readonly transactionStatePartitions: number;
  /**
   * Its transactional ids' metadata as DescribeTransactions reads it: in PrepareCommit/PrepareAbort
   * the partitions are those whose marker is not yet written (Kafka's marker handler removes each
   * partition from the metadata as its marker succeeds, TransactionMetadata.removePartition).
   */
  readonly txns: readonly TxnMetadata[];
}

type Snapshot = {
  context?: {
    txns?: Readonly<Record<string, TxnMetadata>>;
    meta?: { transactionStatePartitions: number };
    hosted?: { owned: Readonly<Record<number, { loading: unknown }>> };
    markers?: Readonly<Record<string, { remaining: readonly string[] }>>;
  };
};

/** "broker-2" → "2"; any other process by its name. */
export function coordinatorIdOf(actor: ActorId): string {
  const process = processOf(actor);
  const m = /^broker-(\d+)$/.exec(process);
  return m ? (m[1] as string) : process;
}

export function txnCoordinators(view: SimView): TxnCoordinatorView[] {
  const out: TxnCoordinatorView[] = [];
  for (const [actor, snap] of view.actors) {
    if (!isTxnCoordinator(actor)) continue;
    const ctx = (snap as Snapshot).context;
    const proc = view.processes.get(processOf(actor));
    const hosted = ctx?.hosted;
    out.push({
      actor,
      coordinatorId: coordinatorIdOf(actor),
      answers: !proc?.down && !proc?.paused,
      owned: hosted ? new Map(Object.entries(hosted.owned).map(([p, o]) => [Number(p), { loaded: o.loading === null }] as const)) : null,
      transactionStatePartitions: ctx?.meta?.transactionStatePartitions ?? 1,
      txns: Object.values(ctx?.txns ?? {}).map((m) => {
        const markers = ctx?.markers?.[m.transactionalId];
        const preparing = m.state === 'PrepareCommit' || m.state === 'PrepareAbort';
        return preparing && markers ? { ...m, partitions: markers.remaining } : m;
      }),
    });
  }
  return out.sort((a, b) => a.coordinatorId.localeCompare(b.coordinatorId, 'en', { numeric: true }));
}

/**
 * The coordinator a FindCoordinator for `transactionalId` would name and that can answer for it now
 * (its partition led here and loaded), or null: none (the Admin client retries until its timeout).
 */
export function coordinatorFor(coordinators: readonly TxnCoordinatorView[], transactionalId: string): TxnCoordinatorView | null {
  for (const c of coordinators) {
    if (!c.answers) continue;
    if (c.owned === null) return c;
    const p = coordinatorPartitionFor(transactionalId, c.transactionStatePartitions);
    if (c.owned.get(p)?.loaded) return c;
  }
  return null;
}
