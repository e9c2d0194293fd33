/**
 * A delivered envelope, said in terms of the Kafka RPC it carries — for steps whose facts do not
 * already tell the story (requests that only queue work, responses that only move a client on).
 */

import { topicPartitionKey } from '../protocol/topicPartition';
import { consumerFetchClause, consumerFetchResponseClause } from './consumerFetch';
import type { NarrationContext } from './context';
import { explainError } from './errors';
import { coordinatorVerifiedClause, txnOffsetCommitVerificationClause } from './groupVerification';
import {
  alterPartitionClause,
  alterPartitionResponseClause,
  brokerHeartbeatClause,
  brokerHeartbeatResponseClause,
  partitionChangeClause,
  partitionChangeResponseClause,
} from './kraft';
import { josa, list, say } from './language';
import { listOffsetsClause, listOffsetsResponseClause } from './listOffsets';
import { poss } from './names';
import { isReplicaFetch, isReplicaFetchResponse, replicaFetchClause, replicaFetchResponseClause } from './replication';
import { batchedAddPartitionsClause, flatAnswer, heldProduceClause } from './verification';
import { metadataRequestClause } from './waitOnMetadata';

type P = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));
const tps = (v: unknown): string[] =>
  Array.isArray(v) ? v.map((x) => topicPartitionKey(str((x as P).topic), num((x as P).partition))) : [];
const offsetList = (v: unknown): string =>
  Array.isArray(v)
    ? v.map((x) => `${topicPartitionKey(str((x as P).topic), num((x as P).partition))}=${num((x as P).offset)}`).join(', ')
    : '';

function errorPart(ctx: NarrationContext, error: unknown): string | null {
  const e = str(error);
  if (!e || e === 'NONE') return null;
  const why = explainError(e, ctx.lang);
  return say(ctx.lang, ` with ${e}${why ? `: ${why}` : ''}`, ` ${e}${why ? `(${why})` : ''}`);
}

/**
 * A partition leader's verification answered CONCURRENT_TRANSACTIONS (protocol v2): it asks again
 * itself after add.partitions.to.txn.retry.backoff.ms, holding the Produce, or — the verification
 * 100 ms old — answers the Produce with that error.
 */
function leaderConcurrentClause(ctx: NarrationContext, leader: string, sentRpcs: readonly (string | undefined)[]): string {
  const { lang } = ctx;
  if (sentRpcs.includes('ProduceResponse'))
    return say(
      lang,
      `the transaction coordinator answered ${leader} with CONCURRENT_TRANSACTIONS again, and its verification has now run for add.partitions.to.txn.retry.backoff.max.ms (100 ms): ${leader} answers the Produce with CONCURRENT_TRANSACTIONS, and the producer sends the batch again after retry.backoff.ms`,
      `트랜잭션 코디네이터가 ${leader}에 다시 CONCURRENT_TRANSACTIONS로 답했고 확인이 add.partitions.to.txn.retry.backoff.max.ms(100 ms) 동안 이어졌으므로 ${josa(leader, '은/는')} Produce에 CONCURRENT_TRANSACTIONS로 답합니다. 프로듀서는 retry.backoff.ms 뒤에 배치를 다시 보냅니다.`,
    );
  return say(
    lang,
    `the transaction coordinator answered ${leader} with CONCURRENT_TRANSACTIONS: this producer's previous transaction is still completing (its markers are not all written). Under transaction protocol v2 ${leader} asks again itself after add.partitions.to.txn.retry.backoff.ms (20 ms), holding the Produce`,
    `트랜잭션 코디네이터가 ${leader}에 CONCURRENT_TRANSACTIONS로 답했습니다. 이 프로듀서의 이전 트랜잭션이 아직 마무리되는 중입니다(마커를 아직 다 쓰지 않음). 트랜잭션 프로토콜 v2에서는 ${josa(leader, '이/가')} Produce를 붙잡은 채 add.partitions.to.txn.retry.backoff.ms(20 ms) 뒤에 직접 다시 묻습니다.`,
  );
}

/**
 * A LeaveGroup answer: the request's error, or its member's entry — UNKNOWN_MEMBER_ID when the
 * coordinator no longer knows the member (its session expired, or the group is gone); close() goes on.
 */
function leaveGroupAnswer(ctx: NarrationContext, to: string, p: P, err: string | null): string {
  const { lang } = ctx;
  if (err) return say(lang, `${poss(to, 'LeaveGroup')} was answered${err}`, `${to}의 LeaveGroup 응답:${err}.`);
  const entry = Array.isArray(p.members) ? (p.members as P[])[0] : undefined;
  if (entry && str(entry.error) === 'UNKNOWN_MEMBER_ID')
    return say(
      lang,
      `the group coordinator does not know member ${str(entry.memberId)} (UNKNOWN_MEMBER_ID in its entry of the LeaveGroup answer): it was already out of the group; ${to} closes anyway`,
      `그룹 코디네이터는 ${josa(`멤버 ${str(entry.memberId)}`, '을/를')} 모릅니다(LeaveGroup 응답의 해당 항목이 UNKNOWN_MEMBER_ID). 이미 그룹에서 빠진 멤버이며, ${josa(to, '은/는')} 그대로 닫힙니다.`,
    );
  return say(lang, `${to} has left its group`, `${josa(to, '이/가')} 그룹을 떠났습니다.`);
}

/** A committed offset's committedLeaderEpoch (KIP-320): the position is checked against the leader before it is fetched from. */
const epochNote = (lang: NarrationContext['lang'], epoch: unknown): string =>
  typeof epoch === 'number' && epoch >= 0
    ? say(lang, ` (leader epoch ${epoch}: checked with the leader first)`, `(리더 epoch ${epoch}: 먼저 리더에게 확인)`)
    : '';

export function rpcClause(ctx: NarrationContext): string {
  const { lang, names, step } = ctx;
  const env = ctx.envelope;
  const p: P = (env?.payload as P) ?? {};
  const to = names.actor(step.actor);
  const from = names.actor(step.from ?? env?.from ?? '');
  const sentRpcs = step.sent.map((id) => ctx.trace.envelopes.at(id)?.rpc);
  const answers = sentRpcs.length > 0;
  const err = errorPart(ctx, p.error);
  switch (step.label) {
    case 'Produce': {
      // one batch per partition the request carries (one request per broker, as Kafka's)
      const parts = list(lang, tps(p.partitions));
      if (sentRpcs.includes('AddPartitionsToTxn'))
        return say(
          lang,
          `${to} holds the Produce from ${from} for ${parts} and first asks the transaction coordinator whether its partitions are in the transaction (KIP-890 verification)`,
          `${josa(to, '은/는')} ${from}의 ${parts} Produce를 잠시 두고, 먼저 그 파티션들이 트랜잭션에 속하는지 트랜잭션 코디네이터에 확인합니다(KIP-890 검증).`,
        );
      // transactional, nothing appended or answered: its verification waits behind the one in flight
      if (!answers && step.facts.length === 0 && p.transactionalId && p.acks !== 0) return heldProduceClause(ctx, to, from, parts);
      return say(
        lang,
        `${to} received a Produce request from ${from} for ${parts}`,
        `${josa(to, '이/가')} ${from}의 ${parts} Produce 요청을 받았습니다.`,
      );
    }
    case 'ProduceResponse':
      return produceResponseClause(ctx, to, Array.isArray(p.responses) ? (p.responses as P[]) : []);
    case 'InitProducerId':
      return p.transactionalId
        ? say(
            lang,
            `${from} asks ${to} for the producerId and epoch of transactional.id ${str(p.transactionalId)} (InitProducerId)`,
            `${josa(from, '이/가')} ${to}에게 transactional.id ${str(p.transactionalId)}의 producerId와 epoch를 요청합니다(InitProducerId).`,
          )
        : say(
            lang,
            `${to} hands ${from} a fresh producerId (InitProducerId without transactional.id: a new one every time a producer starts)`,
            `${josa(to, '이/가')} ${from}에게 새 producerId를 발급합니다(transactional.id 없는 InitProducerId는 프로듀서가 시작할 때마다 새 값을 받습니다).`,
          );
    case 'InitProducerIdResponse':
      return say(
        lang,
        `${to} got its InitProducerIdResponse${err ?? `: producerId ${num(p.producerId)}, epoch ${num(p.producerEpoch)}`}`,
        `${josa(to, '이/가')} InitProducerIdResponse를 받았습니다${err ? `:${err}` : `: producerId ${num(p.producerId)}, epoch ${num(p.producerEpoch)}`}.`,
      );
    case 'AddPartitionsToTxn': {
      if (Array.isArray(p.transactions)) return batchedAddPartitionsClause(ctx, from, to, p);
      const parts = list(lang, tps(p.partitions));
      return p.verifyOnly
        ? say(
            lang,
            `${from}, the partition leader, asks ${to} whether ${parts} belongs to ${str(p.transactionalId)}'s open transaction before it appends (partition verification)`,
            `파티션 리더 ${josa(from, '이/가')} 기록하기 전에 ${josa(parts, '이/가')} ${str(p.transactionalId)}의 열린 트랜잭션에 속하는지 ${to}에게 확인합니다(partition verification).`,
          )
        : say(
            lang,
            `${from} asks ${to} to add ${parts} to transaction ${str(p.transactionalId)} before its first write there (AddPartitionsToTxn)`,
            `${josa(from, '이/가')} 처음 쓰기 전에 ${josa(parts, '을/를')} 트랜잭션 ${str(p.transactionalId)}에 추가해 달라고 ${to}에게 요청합니다(AddPartitionsToTxn).`,
          );
    }
    case 'AddPartitionsToTxnResponse': {
      // a leader's (v4+) answer carries a result per transaction
      const answer = flatAnswer(p);
      if (step.actor.startsWith('broker-') && answer.error === 'CONCURRENT_TRANSACTIONS') return leaderConcurrentClause(ctx, to, sentRpcs);
      const failed = errorPart(ctx, answer.error);
      // the standalone group coordinator's verifications of its TxnOffsetCommits
      if (!failed && step.actor === 'group-coordinator') return coordinatorVerifiedClause(ctx, to, tps(answer.partitions));
      return failed
        ? say(lang, `${poss(to, 'AddPartitionsToTxn')} was answered${failed}`, `${to}의 AddPartitionsToTxn 응답:${failed}.`)
        : say(
            lang,
            `${to} may now write to ${list(lang, tps(answer.partitions)) || 'the partitions'} inside its transaction`,
            `${josa(to, '은/는')} 이제 트랜잭션 안에서 ${list(lang, tps(answer.partitions)) || '해당 파티션'}에 쓸 수 있습니다.`,
          );
    }
    case 'AddOffsetsToTxn':
      return say(
        lang,
        `${from} adds group ${str(p.groupId)}'s offsets to transaction ${str(p.transactionalId)} (sendOffsetsToTransaction, step 1: AddOffsetsToTxn)`,
        `${josa(from, '이/가')} 그룹 ${str(p.groupId)}의 offset을 트랜잭션 ${str(p.transactionalId)}에 포함시킵니다(sendOffsetsToTransaction 1단계: AddOffsetsToTxn).`,
      );
    case 'AddOffsetsToTxnResponse':
      return err
        ? say(lang, `${poss(to, 'AddOffsetsToTxn')} was answered${err}`, `${to}의 AddOffsetsToTxn 응답:${err}.`)
        : say(
            lang,
            `${to} may now send the offsets themselves to the group coordinator (step 2: TxnOffsetCommit)`,
            `${josa(to, '은/는')} 이제 offset 자체를 그룹 코디네이터에 보냅니다(2단계: TxnOffsetCommit).`,
          );
    case 'TxnOffsetCommit':
      return (
        txnOffsetCommitVerificationClause(ctx, to, p) ??
        say(
          lang,
          `${to} holds group ${str(p.groupId)}'s offsets ${offsetList(p.offsets)} as pending in ${str(p.transactionalId)}'s transaction: they count only if it commits`,
          `${josa(to, '은/는')} 그룹 ${str(p.groupId)}의 offset ${josa(offsetList(p.offsets), '을/를')} ${str(p.transactionalId)} 트랜잭션에 보류해 둡니다. 트랜잭션이 커밋돼야만 반영됩니다.`,
        )
      );
    case 'TxnOffsetCommitResponse':
      return err
        ? say(lang, `${poss(to, 'TxnOffsetCommit')} was answered${err}`, `${to}의 TxnOffsetCommit 응답:${err}.`)
        : say(
            lang,
            `${poss(to, 'offsets')} are now part of the transaction: sendOffsetsToTransaction returns`,
            `${to}의 offset이 트랜잭션에 포함됐습니다. sendOffsetsToTransaction이 반환됩니다.`,
          );
    case 'EndTxn':
      return say(
        lang,
        `${from} asks ${to} to ${p.committed ? 'COMMIT' : 'ABORT'} transaction ${str(p.transactionalId)} (EndTxn)`,
        `${josa(from, '이/가')} ${to}에게 트랜잭션 ${str(p.transactionalId)}의 ${p.committed ? 'COMMIT을' : 'ABORT를'} 요청합니다(EndTxn).`,
      );
    case 'EndTxnResponse':
      return err
        ? say(lang, `${poss(to, 'EndTxn')} was answered${err}`, `${to}의 EndTxn 응답:${err}.`)
        : say(
            lang,
            `${to} got the EndTxn answer: the outcome is decided, so its commitTransaction()/abortTransaction() returns while the markers are written in the background`,
            `${josa(to, '이/가')} EndTxn 응답을 받았습니다. 결과가 정해졌으므로 마커가 백그라운드에서 기록되는 동안 commitTransaction()/abortTransaction()이 반환됩니다.`,
          );
    case 'WriteTxnMarkers':
      return say(lang, `${to} received WriteTxnMarkers from ${from}`, `${josa(to, '이/가')} ${from}에게서 WriteTxnMarkers를 받았습니다.`);
    case 'WriteTxnMarkersResponse':
      return say(
        lang,
        `${from} acknowledged its transaction markers to ${to}`,
        `${josa(from, '이/가')} 트랜잭션 마커 기록을 ${to}에게 확인했습니다.`,
      );
    case 'Fetch':
      if (isReplicaFetch(p)) return replicaFetchClause(ctx);
      return consumerFetchClause(ctx, to, from, answers);
    case 'FetchResponse':
      if (isReplicaFetchResponse(ctx)) return replicaFetchResponseClause(ctx);
      return consumerFetchResponseClause(ctx, to);
    case 'ListOffsets':
      return listOffsetsClause(ctx, to, from, step.from ?? env?.from ?? '');
    case 'OffsetsForLeaderEpoch': {
      const parts = Array.isArray(p.partitions) ? (p.partitions as P[]) : [];
      const asks = list(
        lang,
        parts.map((x) =>
          say(
            lang,
            `epoch ${num(x.leaderEpoch)} of ${topicPartitionKey(str(x.topic), num(x.partition))}`,
            `${topicPartitionKey(str(x.topic), num(x.partition))}의 epoch ${num(x.leaderEpoch)}`,
          ),
        ),
      );
      return say(
        lang,
        `${from} asks ${to} where ${asks} ends in its log, to check that its position was not truncated (OffsetsForLeaderEpoch, KIP-320: after a leader change, or for a position taken from a committed offset and its leader epoch); until the answer it neither fetches nor commits ${parts.length > 1 ? 'those partitions' : 'that partition'}`,
        `${josa(from, '이/가')} 자기 위치가 잘려 나간 로그에 있지 않은지 확인하려고 ${to}에게 ${josa(asks, '이/가')} 로그의 어디에서 끝나는지 묻습니다(OffsetsForLeaderEpoch, KIP-320: 리더가 바뀐 뒤, 또는 커밋된 offset과 그 리더 epoch에서 가져온 위치일 때). 답이 올 때까지 그 파티션은 가져오지도 커밋하지도 않습니다.`,
      );
    }
    case 'OffsetsForLeaderEpochResponse': {
      const parts = Array.isArray(p.partitions) ? (p.partitions as P[]) : [];
      const one = (x: P): string => {
        const name = topicPartitionKey(str(x.topic), num(x.partition));
        const e = errorPart(ctx, x.error);
        if (e) return say(lang, `${name}${e}`, `${name}:${e}`);
        if (num(x.endOffset) < 0) return say(lang, `${name}: no such epoch on the leader`, `${name}: 리더에 그런 epoch가 없음`);
        return say(
          lang,
          `${name}: epoch ${num(x.leaderEpoch)} ends at offset ${num(x.endOffset)}`,
          `${name}: ${josa(`epoch ${num(x.leaderEpoch)}`, '은/는')} offset ${num(x.endOffset)}에서 끝남`,
        );
      };
      return say(
        lang,
        `${to} learns from the leader where its positions' epochs end (${list(lang, parts.map(one))})`,
        `${josa(to, '은/는')} 리더에게서 자기 위치의 epoch가 어디서 끝나는지 듣습니다(${list(lang, parts.map(one))}).`,
      );
    }
    case 'ListOffsetsResponse':
      return listOffsetsResponseClause(ctx, to);
    case 'OffsetCommit':
      return say(
        lang,
        `${from} commits offsets ${offsetList(p.offsets)} for group ${str(p.groupId)} (OffsetCommit)`,
        `${josa(from, '이/가')} 그룹 ${str(p.groupId)}의 offset ${josa(offsetList(p.offsets), '을/를')} 커밋합니다(OffsetCommit).`,
      );
    case 'OffsetCommitResponse':
      return err
        ? say(lang, `${poss(to, 'OffsetCommit')} was refused${err}`, `${to}의 OffsetCommit이 거부됐습니다:${err}.`)
        : say(lang, `${poss(to, 'offset commit')} is acknowledged`, `${to}의 offset 커밋이 확인됐습니다.`);
    case 'OffsetFetch':
      return say(
        lang,
        `${from} asks ${to} where group ${str(p.groupId)} left off (OffsetFetch)`,
        `${josa(from, '이/가')} ${to}에게 그룹 ${str(p.groupId)}의 커밋된 위치를 묻습니다(OffsetFetch).`,
      );
    case 'OffsetFetchResponse': {
      if (err) return say(lang, `${poss(to, 'OffsetFetch')} was answered${err}`, `${to}의 OffsetFetch 응답:${err}.`);
      const entries = Array.isArray(p.offsets) ? (p.offsets as P[]) : [];
      const known = entries
        .filter((e) => num(e.offset) >= 0)
        .map((e) => `${topicPartitionKey(str(e.topic), num(e.partition))}=${num(e.offset)}${epochNote(lang, e.committedLeaderEpoch)}`);
      const unknown = entries.filter((e) => num(e.offset) < 0).map((e) => topicPartitionKey(str(e.topic), num(e.partition)));
      const parts: string[] = [];
      if (known.length)
        parts.push(
          say(
            lang,
            `${to} resumes from the committed offsets ${known.join(', ')}`,
            `${josa(to, '은/는')} 커밋된 offset ${known.join(', ')}부터 이어서 읽습니다.`,
          ),
        );
      if (unknown.length)
        parts.push(
          say(
            lang,
            `the group has no committed offset for ${list(lang, unknown)} yet`,
            `그룹에는 아직 ${list(lang, unknown)}의 커밋된 offset이 없습니다.`,
          ),
        );
      return (
        parts.join(lang === 'ko' ? ' ' : '; ') ||
        say(lang, `${to} got its OffsetFetchResponse`, `${josa(to, '이/가')} OffsetFetchResponse를 받았습니다.`)
      );
    }
    case 'JoinGroup':
      return say(
        lang,
        `${from} asks to join group ${str(p.groupId)} (JoinGroup)`,
        `${josa(from, '이/가')} 그룹 ${str(p.groupId)}에 참여를 요청합니다(JoinGroup).`,
      );
    case 'JoinGroupResponse':
      // a new member's first JoinGroup (AbstractCoordinator.JoinGroupResponseHandler): it joins again at once with the id
      if (str(p.error) === 'MEMBER_ID_REQUIRED' && sentRpcs.includes('JoinGroup'))
        return say(
          lang,
          `${poss(to, 'JoinGroup')} was answered${err} — ${str(p.memberId)}; it sends JoinGroup again at once with that member id`,
          `${to}의 JoinGroup 응답:${err}. 받은 멤버 id ${josa(str(p.memberId), '으로/로')} 곧바로 JoinGroup을 다시 보냅니다.`,
        );
      return err
        ? say(lang, `${poss(to, 'JoinGroup')} was answered${err}`, `${to}의 JoinGroup 응답:${err}.`)
        : say(
            lang,
            `${to} joined as member ${str(p.memberId)} of generation ${num(p.generationId)}; now it waits for its assignment (SyncGroup)`,
            `${josa(to, '이/가')} generation ${num(p.generationId)}의 멤버 ${josa(str(p.memberId), '으로/로')} 참여했습니다. 이제 할당을 기다립니다(SyncGroup).`,
          );
    case 'SyncGroup':
      return say(
        lang,
        `${from} asks for its partitions in generation ${num(p.generationId)} (SyncGroup)`,
        `${josa(from, '이/가')} generation ${num(p.generationId)}에서 자기 파티션을 요청합니다(SyncGroup).`,
      );
    case 'SyncGroupResponse':
      return err
        ? say(lang, `${poss(to, 'SyncGroup')} was answered${err}`, `${to}의 SyncGroup 응답:${err}.`)
        : say(
            lang,
            `${to} was assigned ${list(lang, tps(p.assignment)) || 'no partitions'}`,
            `${josa(to, '이/가')} ${josa(list(lang, tps(p.assignment)) || '파티션 없음', '을/를')} 할당받았습니다.`,
          );
    case 'Heartbeat':
      return say(
        lang,
        `${from} heartbeats to ${to}: still alive in generation ${num(p.generationId)}`,
        `${josa(from, '이/가')} ${to}에 하트비트를 보냅니다: generation ${num(p.generationId)}에서 살아 있습니다.`,
      );
    case 'HeartbeatResponse':
      return err
        ? say(lang, `${poss(to, 'heartbeat')} was answered${err}`, `${to}의 하트비트 응답:${err}.`)
        : say(lang, `${poss(to, 'heartbeat')} is acknowledged`, `${to}의 하트비트가 확인됐습니다.`);
    case 'LeaveGroup':
      return say(
        lang,
        `${from} leaves group ${str(p.groupId)}`,
        `${josa(from, '이/가')} ${josa(`그룹 ${str(p.groupId)}`, '을/를')} 떠납니다.`,
      );
    case 'LeaveGroupResponse':
      return leaveGroupAnswer(ctx, to, p, err);
    case 'DbTransaction':
      return say(
        lang,
        `${to} runs a database transaction for ${from}${p.eventId ? ` (${str(p.eventId)})` : ''}`,
        `${josa(to, '이/가')} ${from}의 데이터베이스 트랜잭션을 실행합니다${p.eventId ? `(${str(p.eventId)})` : ''}.`,
      );
    case 'DbTransactionResult':
      return p.conflict
        ? say(
            lang,
            `${to} learns the database wrote nothing: the event was already in its inbox`,
            `${josa(to, '은/는')} 데이터베이스가 아무것도 쓰지 않았음을 알게 됩니다. 이미 inbox에 있던 이벤트입니다.`,
          )
        : say(
            lang,
            `${to} learns the database transaction committed`,
            `${josa(to, '은/는')} 데이터베이스 트랜잭션이 커밋됐음을 알게 됩니다.`,
          );
    case 'DbQuery':
      return say(
        lang,
        `${from} asks ${to} for the offsets it stored with its results`,
        `${josa(from, '이/가')} 결과와 함께 저장한 offset을 ${to}에게 묻습니다.`,
      );
    case 'DbQueryResult':
      return say(lang, `${to} got the stored offsets from the database`, `${josa(to, '이/가')} 데이터베이스에 저장된 offset을 받았습니다.`);
    case 'HttpRequest':
      return str(p.method) === 'GET'
        ? say(
            lang,
            `${from} asks ${to} whether ${str(p.eventId)} was already paid before it tries again (look-up before retry)`,
            `${josa(from, '이/가')} 다시 시도하기 전에 ${josa(str(p.eventId), '이/가')} 이미 결제됐는지 ${to}에게 조회합니다.`,
          )
        : say(
            lang,
            `${to} received ${poss(from, 'request')} for ${str(p.eventId)}`,
            `${josa(to, '이/가')} ${str(p.eventId)}에 대한 ${from}의 요청을 받았습니다.`,
          );
    case 'HttpResponse':
      return say(
        lang,
        `${to} got HTTP ${num(p.status)} from ${from}${num(p.status) === 404 ? ': the first call never took effect, so calling again is safe' : ''}`,
        `${josa(to, '이/가')} ${from}에게서 HTTP ${josa(String(num(p.status)), '을/를')} 받았습니다${num(p.status) === 404 ? '. 첫 호출이 반영되지 않았으므로 다시 호출해도 안전합니다' : ''}.`,
      );
    // KRaft: the brokers and the controller
    case 'BrokerHeartbeat':
      return brokerHeartbeatClause(ctx);
    case 'BrokerHeartbeatResponse':
      return brokerHeartbeatResponseClause(ctx);
    case 'AlterPartition':
      return alterPartitionClause(ctx);
    case 'AlterPartitionResponse':
      return alterPartitionResponseClause(ctx);
    case 'PartitionChange':
      return partitionChangeClause(ctx);
    case 'PartitionChangeResponse':
      return partitionChangeResponseClause(ctx);
    case 'Metadata':
      return metadataRequestClause(lang, to, from, Array.isArray(p.topics) ? (p.topics as string[]) : []);
    default:
      return say(
        lang,
        `${to} received ${step.label} from ${from}`,
        `${josa(to, '이/가')} ${from}에게서 ${josa(step.label, '을/를')} 받았습니다.`,
      );
  }
}

/** A ProduceResponse: one result per partition of its request (an offset, or an error). */
function produceResponseClause(ctx: NarrationContext, to: string, responses: readonly P[]): string {
  const { lang } = ctx;
  const where = (r: P) => topicPartitionKey(str(r.topic), num(r.partition));
  const [only] = responses;
  if (responses.length === 1 && only) {
    const err = errorPart(ctx, only.error);
    return err
      ? say(
          lang,
          `${to} got a ProduceResponse for ${where(only)}${err}`,
          `${josa(to, '이/가')} ${where(only)}에 대한 ProduceResponse를 받았습니다:${err}.`,
        )
      : say(
          lang,
          `${to} got the ProduceResponse for ${where(only)}: offset ${num(only.baseOffset)}`,
          `${josa(to, '이/가')} ${where(only)}에 대한 ProduceResponse를 받았습니다: offset ${num(only.baseOffset)}.`,
        );
  }
  const results = responses.map((r) => {
    const e = str(r.error);
    return e && e !== 'NONE' ? `${where(r)} ${e}` : `${where(r)} offset ${num(r.baseOffset)}`;
  });
  return say(
    lang,
    `${to} got one ProduceResponse for ${responses.length} partitions: ${results.join('; ')}`,
    `${josa(to, '이/가')} 파티션 ${responses.length}개에 대한 ProduceResponse 하나를 받았습니다: ${results.join('; ')}.`,
  );
}
