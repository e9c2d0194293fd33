/**
 * A TxnOffsetCommit's verification (KIP-890) as Kafka 4.x makes it: through the
 * AddPartitionsToTxnManager of the broker the group coordinator runs on — the queue that broker's
 * Produce verifications use, one AddPartitionsToTxn in flight per transaction coordinator. A hosted
 * coordinator asks its broker in-process (`verifyTxnOffsetCommit`, answered by
 * `txnOffsetCommitVerified`); the standalone one keeps that queue itself.
 */
import type { TraceStep } from '../kernel/types';
import { topicPartitionKey } from '../protocol/topicPartition';
import type { NarrationContext } from './context';
import { josa, list, say } from './language';
import { poss } from './names';

type P = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));
const tp = (v: unknown): string => topicPartitionKey(str((v as P | undefined)?.topic), Number((v as P | undefined)?.partition ?? 0));
const offsetList = (v: unknown): string => (Array.isArray(v) ? v.map((x) => `${tp(x)}=${Number((x as P).offset ?? 0)}`).join(', ') : '');

/** The in-process call `label` this step made (the next steps of the same instant), if any. */
function callMade(ctx: NarrationContext, label: string): TraceStep | null {
  const { step, trace } = ctx;
  for (let i = step.i + 1; i < Math.min(trace.steps.length, step.i + 12); i++) {
    const s = trace.steps.at(i);
    if (!s || s.t !== step.t) return null;
    if (s.kind === 'call' && s.from === step.actor && s.label === label) return s;
  }
  return null;
}

function sentRpc(ctx: NarrationContext, rpc: string): P | null {
  for (const id of ctx.step.sent) {
    const e = ctx.trace.envelopes.at(id);
    if (e?.rpc === rpc) return e.payload as P;
  }
  return null;
}

/**
 * A TxnOffsetCommit that waits for its verification (null: it was answered or written at once). The
 * hosted coordinator hands it to its broker; the standalone one sends it, or holds it behind the
 * request in flight.
 */
export function txnOffsetCommitVerificationClause(ctx: NarrationContext, to: string, p: P): string | null {
  const { lang } = ctx;
  const group = str(p.groupId);
  const txn = str(p.transactionalId);
  const offsets = offsetList(p.offsets);
  const hosted = callMade(ctx, 'verifyTxnOffsetCommit');
  if (hosted) {
    const broker = ctx.names.actor(hosted.actor);
    const part = tp((hosted.detail as P | null)?.partition);
    return say(
      lang,
      `${to} does not write group ${group}'s offsets ${offsets} yet: ${broker} first verifies with the transaction coordinator that ${part} is in ${txn}'s transaction (KIP-890), through ${poss(broker, 'AddPartitionsToTxnManager')} — the queue its Produce verifications use (CoordinatorPartitionWriter.maybeStartTransactionVerification)`,
      `${josa(to, '은/는')} 그룹 ${group}의 offset ${josa(offsets, '을/를')} 아직 쓰지 않습니다. 먼저 ${josa(broker, '이/가')} ${josa(part, '이/가')} ${txn}의 트랜잭션에 속하는지 트랜잭션 코디네이터에 확인합니다(KIP-890). 이 검증은 ${broker}의 AddPartitionsToTxnManager, 곧 Produce 검증이 쓰는 그 큐를 거칩니다(CoordinatorPartitionWriter.maybeStartTransactionVerification).`,
    );
  }
  if (ctx.step.actor !== 'group-coordinator' || sentRpc(ctx, 'TxnOffsetCommitResponse')) return null;
  const request = sentRpc(ctx, 'AddPartitionsToTxn');
  if (request) {
    const t = (request.transactions as P[] | undefined)?.[0];
    const part = list(lang, ((t?.partitions as P[] | undefined) ?? []).map(tp));
    return say(
      lang,
      `${to} does not write group ${group}'s offsets ${offsets} yet: it first verifies with the transaction coordinator that ${part} is in ${txn}'s transaction (KIP-890, AddPartitionsToTxn from its broker's AddPartitionsToTxnManager)`,
      `${josa(to, '은/는')} 그룹 ${group}의 offset ${josa(offsets, '을/를')} 아직 쓰지 않습니다. 먼저 ${josa(part, '이/가')} ${txn}의 트랜잭션에 속하는지 트랜잭션 코디네이터에 확인합니다(KIP-890, 브로커의 AddPartitionsToTxnManager가 보내는 AddPartitionsToTxn).`,
    );
  }
  if (ctx.step.facts.length > 0) return null;
  return say(
    lang,
    `${to} holds the TxnOffsetCommit of group ${group} (${txn}): its verification waits, because ${poss(to, 'AddPartitionsToTxn')} to the transaction coordinator is still unanswered — as a broker's AddPartitionsToTxnManager does, it keeps one in flight and sends what waited meanwhile together in the next`,
    `${josa(to, '은/는')} 그룹 ${group}(${txn})의 TxnOffsetCommit을 잠시 둡니다. 트랜잭션 코디네이터에 보낸 AddPartitionsToTxn이 아직 응답을 받지 못해 검증이 기다립니다. 브로커의 AddPartitionsToTxnManager처럼 요청을 하나만 보내 두고, 그동안 기다린 검증을 다음 요청에 함께 보냅니다.`,
  );
}

/** The broker takes its group coordinator's verification (`verifyTxnOffsetCommit`). */
function verifyCallClause(ctx: NarrationContext): string {
  const { lang, step } = ctx;
  const broker = ctx.names.actor(step.actor);
  const d = (step.detail ?? {}) as P;
  const part = tp(d.partition);
  const txn = str(d.transactionalId);
  const answered = callMade(ctx, 'txnOffsetCommitVerified');
  if (answered) {
    const error = str((answered.detail as P | null)?.error);
    return error === 'NONE'
      ? say(
          lang,
          `${part} already holds ${txn}'s open transaction at this epoch, so no verification is needed (UnifiedLog.hasOngoingTransaction): ${broker} tells its group coordinator so at once`,
          `${josa(part, '은/는')} 이미 이 epoch의 ${txn} 트랜잭션을 담고 있어 검증이 필요 없습니다(UnifiedLog.hasOngoingTransaction). ${josa(broker, '은/는')} 곧바로 그룹 코디네이터에 알립니다.`,
        )
      : say(
          lang,
          `${broker} cannot verify ${part} for ${txn} (${error}) and tells its group coordinator at once`,
          `${josa(broker, '은/는')} ${txn}의 ${josa(part, '을/를')} 검증할 수 없어(${error}) 곧바로 그룹 코디네이터에 알립니다.`,
        );
  }
  if (sentRpc(ctx, 'AddPartitionsToTxn'))
    return say(
      lang,
      `${broker} puts its group coordinator's verification of ${part} (${txn}) in its AddPartitionsToTxnManager and, with nothing in flight to that transaction coordinator, sends it at once`,
      `${josa(broker, '은/는')} 그룹 코디네이터가 맡긴 ${part}(${txn}) 검증을 AddPartitionsToTxnManager에 넣고, 그 트랜잭션 코디네이터에 보낸 요청이 없으므로 곧바로 보냅니다.`,
    );
  return say(
    lang,
    `${broker} holds its group coordinator's verification of ${part} (${txn}): ${poss(broker, 'AddPartitionsToTxn')} to that transaction coordinator is still unanswered — one in flight per coordinator, and what waits meanwhile, Produce verifications included, goes together in the next (AddPartitionsToTxnManager)`,
    `${josa(broker, '은/는')} 그룹 코디네이터가 맡긴 ${part}(${txn}) 검증을 잠시 둡니다. 그 트랜잭션 코디네이터에 보낸 AddPartitionsToTxn이 아직 응답을 받지 못했습니다. 코디네이터마다 요청은 하나만 보내 두고, 그동안 기다린 검증은 Produce 검증까지 다음 요청에 함께 보냅니다(AddPartitionsToTxnManager).`,
  );
}

/** The group coordinator gets its verification's answer from its broker (`txnOffsetCommitVerified`). */
function verifiedCallClause(ctx: NarrationContext): string {
  const { lang, step } = ctx;
  const gc = ctx.names.actor(step.actor);
  const broker = ctx.names.actor(step.from ?? '');
  const refused = sentRpc(ctx, 'TxnOffsetCommitResponse');
  const error = str(refused?.error ?? 'NONE');
  if (error !== 'NONE')
    return say(
      lang,
      `${broker} hands ${gc} the verification's answer; the group check that follows refuses the TxnOffsetCommit with ${error}`,
      `${josa(broker, '이/가')} ${gc}에 검증 결과를 넘깁니다. 이어진 그룹 검사가 TxnOffsetCommit을 ${josa(error, '으로/로')} 거절합니다.`,
    );
  return say(
    lang,
    `${broker} hands ${gc} the verification's answer: the offsets partition is in the transaction, so ${gc} writes the TxnOffsetCommit's offsets as pending`,
    `${josa(broker, '이/가')} ${gc}에 검증 결과를 넘깁니다. offset 파티션이 트랜잭션에 속하므로 ${josa(gc, '은/는')} TxnOffsetCommit의 offset을 보류 상태로 씁니다.`,
  );
}

/** The two in-process calls of a hosted coordinator's verification (null: another call). */
export function groupVerificationCallClause(ctx: NarrationContext): string | null {
  if (ctx.step.label === 'verifyTxnOffsetCommit') return verifyCallClause(ctx);
  if (ctx.step.label === 'txnOffsetCommitVerified') return verifiedCallClause(ctx);
  return null;
}

/** The standalone coordinator's AddPartitionsToTxn answered without errors: the TxnOffsetCommits it verified go on. */
export function coordinatorVerifiedClause(ctx: NarrationContext, to: string, partitions: readonly string[]): string {
  return say(
    ctx.lang,
    `the transaction coordinator confirmed ${list(ctx.lang, partitions)}: ${to} writes the verified TxnOffsetCommits' offsets as pending and answers them`,
    `트랜잭션 코디네이터가 ${josa(list(ctx.lang, partitions), '을/를')} 확인했습니다. ${josa(to, '은/는')} 검증된 TxnOffsetCommit의 offset을 보류 상태로 쓰고 응답합니다.`,
  );
}
