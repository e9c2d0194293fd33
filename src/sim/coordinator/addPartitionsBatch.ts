/**
 * A broker's AddPartitionsToTxn (v4+, several transactions) on the transaction coordinator
 * (KafkaApis.handleAddPartitionsToTxnRequest): each transaction is handled on its own, as a
 * client's one-transaction request is (verifyOnly: handleVerifyPartitionsInTransaction, else
 * handleAddPartitionsToTransaction), and the one answer goes out once every transaction has its
 * result (`addResultAndMaybeSendResponse`) — some only after their __transaction_state write.
 *
 * The handlers answer each transaction as a request of its own; those answers are caught here
 * (by the request's envelope and the transaction's index as correlation id) and gathered.
 */
import { Out, type PendingRequest, pendingRequest } from '../actors/out';
import type { RpcEvent } from '../kernel/effects';
import type {
  AddPartitionsToTxnBatchRequest,
  AddPartitionsToTxnRequest,
  AddPartitionsToTxnResponse,
  AddPartitionsToTxnResult,
} from '../protocol/messages';
import type { TxnCoordinatorContext } from './txnCoordinatorContext';

/** A batched request not answered yet: its transactions' results so far. */
export interface OpenAddPartitionsBatch {
  readonly envelopeId: number;
  readonly request: PendingRequest;
  readonly transactions: readonly AddPartitionsToTxnRequest[];
  readonly results: readonly (AddPartitionsToTxnResult | null)[];
}

type Handler<E> = (ctx: TxnCoordinatorContext, ev: E, out: Out) => TxnCoordinatorContext;

export function isBatched(payload: unknown): payload is AddPartitionsToTxnBatchRequest {
  return Array.isArray((payload as { transactions?: unknown }).transactions);
}

/** One transaction's answer as a result: a request-level error (a refusal) becomes every partition's. */
function resultOf(t: AddPartitionsToTxnRequest, answer: Partial<AddPartitionsToTxnResponse>): AddPartitionsToTxnResult {
  const error = answer.error ?? 'NONE';
  return {
    transactionalId: t.transactionalId,
    partitions: t.partitions.map((p) => {
      const own = answer.partitions?.find((x) => x.topic === p.topic && x.partition === p.partition);
      return { topic: p.topic, partition: p.partition, error: error !== 'NONE' ? error : (own?.error ?? 'NONE') };
    }),
  };
}

/**
 * Runs `fn` with its effects caught: a transaction's answer to an open batch is kept as its result,
 * and a batch with every result goes out as one AddPartitionsToTxnResponse.
 */
export function gatheringBatches<E>(fn: Handler<E>): Handler<E> {
  return (ctx, ev, out) => {
    if (!ctx.addPartitionsBatches?.length) return fn(ctx, ev, out);
    const inner = new Out();
    return gather(fn(ctx, ev, inner), inner, out);
  };
}

function gather(ctx: TxnCoordinatorContext, inner: Out, out: Out): TxnCoordinatorContext {
  let batches = ctx.addPartitionsBatches ?? [];
  for (const e of inner.effects) {
    const b = e.type === 'send' && e.inReplyTo !== undefined ? batches.find((x) => x.envelopeId === e.inReplyTo) : undefined;
    if (e.type !== 'send' || !b) {
      out.effects.push(e);
      continue;
    }
    const answer = e.payload as Partial<AddPartitionsToTxnResponse> & { correlationId: number };
    const t = b.transactions[answer.correlationId];
    if (!t) continue;
    const results = b.results.map((r, i) => (i === answer.correlationId ? resultOf(t, answer) : r));
    batches = batches.map((x) => (x === b ? { ...b, results } : x));
  }
  out.raised.push(...inner.raised);
  const done = batches.filter((b) => b.results.every((r) => r !== null));
  for (const b of done) out.reply(b.request, 'AddPartitionsToTxnResponse', { error: 'NONE', resultsByTransaction: b.results });
  if (batches === ctx.addPartitionsBatches) return ctx;
  const open = batches.filter((b) => !done.includes(b));
  const { addPartitionsBatches: _gone, ...rest } = ctx;
  return open.length > 0 ? { ...rest, addPartitionsBatches: open } : rest;
}

/**
 * The AddPartitionsToTxn handler taking the v4+ form too: each transaction is run through `fn` as a
 * request of its own (same sender and envelope, its index as correlation id), then gathered.
 */
export function servingBatches(fn: Handler<RpcEvent<AddPartitionsToTxnRequest>>): Handler<RpcEvent<AddPartitionsToTxnRequest>> {
  const gathering = gatheringBatches(fn);
  return (ctx, ev, out) => {
    const payload: unknown = ev.payload;
    if (!isBatched(payload)) return gathering(ctx, ev, out);
    const opened: OpenAddPartitionsBatch = {
      envelopeId: ev.envelopeId,
      request: pendingRequest(ev),
      transactions: payload.transactions,
      results: payload.transactions.map(() => null),
    };
    let c: TxnCoordinatorContext = { ...ctx, addPartitionsBatches: [...(ctx.addPartitionsBatches ?? []), opened] };
    const inner = new Out();
    payload.transactions.forEach((t, i) => {
      const one: AddPartitionsToTxnRequest & { correlationId: number } = { ...t, correlationId: i };
      c = fn(c, { ...ev, payload: one }, inner);
    });
    return gather(c, inner, out);
  };
}
