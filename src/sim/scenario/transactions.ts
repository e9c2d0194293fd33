/**
 * Whether a scenario uses Kafka's transactions, read from its resolved configuration: some producer
 * has a transactional.id — a producer client's own, or a consumer application's producer (the
 * exactly-once mode gets `<id>-txn` unless its producerConfig names one) — or some Streams
 * application runs processing.guarantee=exactly_once_v2 (its producers are transactional). The
 * transaction protocol (transaction.version) changes nothing in a run without them.
 */
import type { ResolvedScenario } from './validate';

export function usesTransactions(resolved: Pick<ResolvedScenario, 'producers' | 'streams'>): boolean {
  return (
    Object.values(resolved.producers).some((p) => p['transactional.id'] !== null) ||
    Object.values(resolved.streams).some((s) => s['processing.guarantee'] === 'exactly_once_v2')
  );
}
