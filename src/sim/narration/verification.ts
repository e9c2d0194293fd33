/**
 * A partition leader's transaction verifications as AddPartitionsToTxnManager sends them: at most
 * one AddPartitionsToTxn in flight to each coordinator, the verifications that wait meanwhile
 * sent together in the next one (the v4+ form, a list of transactions).
 */
import { topicPartitionKey } from '../protocol/topicPartition';
import type { NarrationContext } from './context';
import { josa, list, say } from './language';

type P = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));
const tps = (v: unknown): string[] =>
  Array.isArray(v) ? v.map((x) => topicPartitionKey(str((x as P).topic), Number((x as P).partition ?? 0))) : [];
const transactionsOf = (p: P): P[] => (Array.isArray(p.transactions) ? (p.transactions as P[]) : []);

/** A transactional Produce the leader holds without sending anything: its verification waits in the queue. */
export function heldProduceClause(ctx: NarrationContext, leader: string, from: string, parts: string): string {
  return say(
    ctx.lang,
    `${leader} holds the Produce from ${from} for ${parts}: its verification waits, because ${leader}'s AddPartitionsToTxn to that transaction coordinator is still unanswered — a leader keeps one in flight per coordinator and sends what waited meanwhile together in the next (AddPartitionsToTxnManager)`,
    `${josa(leader, '은/는')} ${from}의 ${parts} Produce를 잠시 둡니다. 그 트랜잭션 코디네이터에 보낸 ${leader}의 AddPartitionsToTxn이 아직 응답을 받지 못해 검증이 기다립니다. 리더는 코디네이터마다 요청을 하나만 보내 두고, 그동안 기다린 검증을 다음 요청에 함께 보냅니다(AddPartitionsToTxnManager).`,
  );
}

/** A leader's AddPartitionsToTxn (v4+): one sentence over its transactions. */
export function batchedAddPartitionsClause(ctx: NarrationContext, from: string, to: string, p: P): string {
  const txns = transactionsOf(p);
  const verifyOnly = txns.every((t) => t.verifyOnly === true);
  const one = txns.length === 1 ? txns[0] : undefined;
  if (one) {
    const parts = list(ctx.lang, tps(one.partitions));
    const id = str(one.transactionalId);
    return verifyOnly
      ? say(
          ctx.lang,
          `${from}, the partition leader, asks ${to} whether ${parts} belongs to ${id}'s open transaction before it appends (partition verification)`,
          `파티션 리더 ${josa(from, '이/가')} 기록하기 전에 ${josa(parts, '이/가')} ${id}의 열린 트랜잭션에 속하는지 ${to}에게 확인합니다(partition verification).`,
        )
      : say(
          ctx.lang,
          `${from} asks ${to} to add ${parts} to transaction ${id} before its first write there (AddPartitionsToTxn)`,
          `${josa(from, '이/가')} 처음 쓰기 전에 ${josa(parts, '을/를')} 트랜잭션 ${id}에 추가해 달라고 ${to}에게 요청합니다(AddPartitionsToTxn).`,
        );
  }
  const en = list(
    'en',
    txns.map((t) => `${list('en', tps(t.partitions))} (${str(t.transactionalId)})`),
  );
  const ko = list(
    'ko',
    txns.map((t) => `${list('ko', tps(t.partitions))}(${str(t.transactionalId)})`),
  );
  return verifyOnly
    ? say(
        ctx.lang,
        `${from}, the partition leader, asks ${to} in one AddPartitionsToTxn about ${txns.length} transactions — whether ${en} belong to their open transactions — before it appends (partition verification, every transaction it was waiting to verify)`,
        `파티션 리더 ${josa(from, '이/가')} 기록하기 전에 AddPartitionsToTxn 하나로 ${josa(ko, '이/가')} 각자의 열린 트랜잭션에 속하는지 ${to}에게 확인합니다(partition verification, 기다리던 트랜잭션 ${txns.length}개 전부).`,
      )
    : say(
        ctx.lang,
        `${from} asks ${to} in one AddPartitionsToTxn to add ${en} to their transactions before the first writes there (${txns.length} transactions: every one it was waiting to verify)`,
        `${josa(from, '이/가')} AddPartitionsToTxn 하나로 ${josa(ko, '을/를')} 각자의 트랜잭션에 추가해 달라고 ${to}에게 요청합니다(기다리던 트랜잭션 ${txns.length}개 전부).`,
      );
}

/** A v4+ answer flattened: its first error (the request's, else a partition's) and all its partitions. */
export function flatAnswer(p: P): { error: unknown; partitions: P[] } {
  if (!Array.isArray(p.resultsByTransaction))
    return { error: p.error, partitions: Array.isArray(p.partitions) ? (p.partitions as P[]) : [] };
  const partitions = (p.resultsByTransaction as P[]).flatMap((r) => (Array.isArray(r.partitions) ? (r.partitions as P[]) : []));
  const first = partitions.find((x) => x.error !== undefined && x.error !== 'NONE');
  return { error: p.error !== 'NONE' && p.error !== undefined ? p.error : (first?.error ?? 'NONE'), partitions };
}

/**
 * A leader's verification request ended (answered or failed) and the step sends the next one: the
 * verifications that waited for that coordinator meanwhile, in one request.
 */
export function nextVerificationClauses(ctx: NarrationContext): string[] {
  const { step, trace } = ctx;
  const ended =
    (step.kind === 'deliver' && step.label === 'AddPartitionsToTxnResponse') ||
    (step.kind === 'disconnected' && ctx.envelope?.rpc === 'AddPartitionsToTxn');
  // a broker's queue, or the standalone group coordinator's (it stands for its broker)
  if (!ended || !(step.actor.startsWith('broker-') || step.actor === 'group-coordinator')) return [];
  const next = step.sent.map((id) => trace.envelopes.at(id)).find((e) => e?.rpc === 'AddPartitionsToTxn');
  if (!next) return [];
  const n = transactionsOf(next.payload as P).length;
  const leader = ctx.names.actor(step.actor);
  return [
    say(
      ctx.lang,
      `the coordinator is free again, so ${leader} sends the ${n === 1 ? 'verification' : `${n} verifications`} that waited meanwhile in one AddPartitionsToTxn`,
      `코디네이터가 다시 비었으므로 ${josa(leader, '은/는')} 그동안 기다린 검증 ${n}개를 AddPartitionsToTxn 하나로 보냅니다.`,
    ),
  ];
}
