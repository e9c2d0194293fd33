/**
 * The order a producer's records land in, one partition at a time: Jepsen's Kafka checker names the
 * anomaly "non-monotonic send" (records of one producer acknowledged at offsets out of the order
 * they were sent). Kafka's idempotent producer rules it out: the broker appends a producer's batches
 * of a partition only in sequence order (`ProducerAppendInfo.checkSequence`: OUT_OF_ORDER_SEQUENCE_NUMBER
 * otherwise), and the client retries in that order with at most five requests in flight
 * (`RecordAccumulator` / `TransactionManager` sequence numbers; `max.in.flight.requests.per.connection`
 * ≤ 5 is required). Without idempotence, retries with more than one request in flight may reorder
 * records — Kafka's documented caveat — so only idempotent producers are held to it.
 *
 * The check: for each idempotent producer and partition, the records acknowledged with an offset,
 * taken in the order send() was called (their refs), have increasing offsets. It starts over when
 * the producer's process crashes or restarts, or the application makes a new producer (`restart`:
 * a new producer id, whose records may be interleaved with the old one's last). A partition that had
 * an unclean election, or a truncation while the producer used `acks` other than `all`, is left
 * out: there an acknowledged record may be cut and its offset written again (the loss the verdict
 * reports), which is not a reordering.
 */
import type { ActorId } from '../kernel/envelope';
import { processOf } from '../kernel/faults';
import { keyOf } from '../protocol/topicPartition';
import type { Trace } from '../run';
import type { Fact } from '../trace/facts';
import type { Ledger } from './invariants';
import { STARTS_OVER } from './startsOver';

export type SendInvariantId = 'sends-in-order';

export const SEND_INVARIANTS: Readonly<Record<SendInvariantId, string>> = {
  'sends-in-order':
    "An idempotent producer's records to a partition are acknowledged at offsets in the order send() was called (no non-monotonic send), within one producer: a crash, a restart or a new producer starts the count over.",
};

type Report = (invariant: SendInvariantId, step: number, message: string) => void;

interface Ack {
  readonly ref: number;
  readonly offset: number;
  readonly step: number;
}

/** A producer's resolved config, looked up as the run resolved it (a consumer application's is `<id>.producer`). */
function producerConfig(trace: Trace, client: string): { readonly idempotent: boolean; readonly acksAll: boolean } | null {
  const c = trace.resolved.producers[client] ?? trace.resolved.producers[`${client}.producer`];
  if (!c) return null;
  return { idempotent: c['enable.idempotence'] === true, acksAll: c.acks === -1 };
}

export function checkSends(trace: Trace, facts: readonly { step: number; fact: Fact }[], ledger: Ledger, report: Report): void {
  const truncated = new Set<string>();
  for (const { fact } of facts) if (fact.kind === 'truncated') truncated.add(keyOf(fact));
  /** Each client's acknowledged records per partition, in one producer's life (keyed client|tp|life). */
  const acks = new Map<string, Ack[]>();
  /** How many times each process started a new producer so far. */
  const lives = new Map<string, number>();
  const configs = new Map<string, ReturnType<typeof producerConfig>>();
  for (const s of trace.steps) {
    if (STARTS_OVER.has(s.label)) {
      const p = processOf(s.actor as ActorId);
      lives.set(p, (lives.get(p) ?? 0) + 1);
    }
    for (const f of s.facts as readonly Fact[]) {
      if (f.kind !== 'sendResult' || f.offset === null || f.error !== null) continue;
      if (!configs.has(f.client)) configs.set(f.client, producerConfig(trace, f.client));
      const config = configs.get(f.client);
      const tp = keyOf(f);
      if (!config?.idempotent || ledger.unclean.has(tp) || (!config.acksAll && truncated.has(tp))) continue;
      const key = `${f.client}|${tp}|${lives.get(processOf(s.actor as ActorId)) ?? 0}`;
      const list = acks.get(key) ?? [];
      list.push({ ref: f.ref, offset: f.offset, step: s.i });
      acks.set(key, list);
    }
  }
  for (const [key, list] of acks) {
    const [client, tp] = key.split('|');
    const byRef = [...list].sort((a, b) => a.ref - b.ref);
    for (let i = 1; i < byRef.length; i++) {
      const before = byRef[i - 1] as Ack;
      const after = byRef[i] as Ack;
      if (after.offset > before.offset) continue;
      report(
        'sends-in-order',
        Math.max(before.step, after.step),
        `${client}'s record #${after.ref} to ${tp} was acknowledged at offset ${after.offset}, not after its record #${before.ref} sent before it (offset ${before.offset})`,
      );
      break;
    }
  }
}
