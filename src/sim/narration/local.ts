/**
 * Steps that are not a network message: timers (linger.ms, retry backoff, session timeouts, the
 * transaction timeout check …), local calls between an application and its Kafka
 * clients (send, poll, commitSync, commitTransaction …), and boots.
 */

import { processOf } from '../kernel/faults';
import { topicPartitionKey } from '../protocol/topicPartition';
import { groupDigits } from '../text/groupDigits';
import { sendAfterBufferClause } from './bufferPool';
import { actorConfig, type NarrationContext, processingMode, processKind } from './context';
import { coordinatorLookupRetryClause } from './coordinatorLookup';
import { explainError } from './errors';
import { groupVerificationCallClause } from './groupVerification';
import { count, josa, type Language, list, say } from './language';
import { poss } from './names';
import { translateRefusal } from './notes';
import { replicationTimerClause } from './replication';

type P = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));
const offsetList = (v: unknown): string =>
  Array.isArray(v)
    ? v.map((x) => `${topicPartitionKey(str((x as P).topic), num((x as P).partition))}=${num((x as P).offset)}`).join(', ')
    : '';

/** "Produce to broker-0" for what the step sent. */
function sentText(ctx: NarrationContext): string {
  const items = ctx.step.sent
    .map((id) => ctx.trace.envelopes.at(id))
    .filter((e) => e !== undefined)
    .map((e) => say(ctx.lang, `${e.rpc} to ${ctx.names.actor(e.to)}`, `${ctx.names.actor(e.to)}에 ${e.rpc}`));
  return list(ctx.lang, [...new Set(items)], 3);
}

/**
 * The held Fetch this step answers, when its offset is above what it may read (the LSO for
 * read_committed, else the HW): DelayedFetch's case F, answered at once rather than at fetch.max.wait.ms.
 */
function fetchAboveItsBound(ctx: NarrationContext): { offset: number; bound: string; at: number; where: string } | null {
  for (const id of ctx.step.sent) {
    const answer = ctx.trace.envelopes.at(id);
    if (answer?.rpc !== 'FetchResponse' || answer.inReplyTo === null) continue;
    const request = ctx.trace.envelopes.at(answer.inReplyTo)?.payload;
    if (!request || !Array.isArray(request.partitions) || !Array.isArray(answer.payload.partitions)) continue;
    const committed = request.isolationLevel === 'read_committed';
    const answered = answer.payload.partitions as Record<string, unknown>[];
    // the partition of the fetch that is above its bound (DelayedFetch case F completes the whole fetch)
    for (const [i, asked] of (request.partitions as Record<string, unknown>[]).entries()) {
      const got = answered[i];
      if (!got || got.error !== 'NONE') continue;
      const at = num(committed ? got.lastStableOffset : got.highWatermark);
      if (num(asked.fetchOffset) > at)
        return {
          offset: num(asked.fetchOffset),
          bound: committed ? 'LSO' : say(ctx.lang, 'high watermark', 'HW'),
          at,
          where: answered.length > 1 ? topicPartitionKey(String(asked.topic), num(asked.partition)) : '',
        };
    }
  }
  return null;
}

function role(id: string): string {
  const dot = id.lastIndexOf('.');
  return dot < 0 ? '' : id.slice(dot + 1);
}

/** The caller of this step's call is a stream thread shutting down (its last step before this one left it in `shuttingDown`). */
function callerShuttingDown(ctx: NarrationContext): boolean {
  const from = ctx.step.from;
  if (!from) return false;
  for (let i = ctx.step.i - 1; i >= Math.max(0, ctx.step.i - 16); i--) {
    const s = ctx.trace.steps.at(i);
    if (s?.actor === from) return s.after.startsWith('shuttingDown');
  }
  return false;
}

/** The call an application makes in this step or the few after it (what "moves on" means). */
function nextCall(ctx: NarrationContext): string | null {
  const steps = ctx.trace.steps;
  for (let i = ctx.step.i + 1; i < Math.min(steps.length, ctx.step.i + 8); i++) {
    const s = steps.at(i);
    if (s && s.kind === 'call' && s.from === ctx.step.actor && s.label !== 'reply') return s.label;
    // the actor's own next step came first: this one called nothing (a sleep that ended)
    if (s?.actor === ctx.step.actor) return null;
  }
  return null;
}

interface WireBatch {
  readonly producerEpoch: number;
  readonly baseSequence: number;
  readonly records: readonly { readonly origin?: { readonly client: string; readonly ref: number } }[];
}

/**
 * A Produce this step sends whose batch first went out with another epoch or sequence: the idempotent
 * producer's epoch bump rewrote it (TxnPartitionEntry.startSequencesAtBeginning), or a transactional
 * producer moved its sequence down after an earlier batch failed (adjustSequencesDueToFailedBatch).
 */
function rewrittenRetry(ctx: NarrationContext): { was: WireBatch; now: WireBatch } | null {
  for (const id of ctx.step.sent) {
    const e = ctx.trace.envelopes.at(id);
    if (e?.rpc !== 'Produce') continue;
    for (const p of (e.payload.partitions ?? []) as { batch: WireBatch }[]) {
      const o = p.batch.records[0]?.origin;
      if (!o) continue;
      for (let j = 0; j < id; j++) {
        const prev = ctx.trace.envelopes.at(j);
        if (prev?.rpc !== 'Produce' || prev.from !== e.from) continue;
        const q = ((prev.payload.partitions ?? []) as { batch: WireBatch }[]).find((x) =>
          x.batch.records.some((r) => r.origin?.client === o.client && r.origin.ref === o.ref),
        );
        if (!q) continue;
        if (q.batch.producerEpoch !== p.batch.producerEpoch || q.batch.baseSequence !== p.batch.baseSequence)
          return { was: q.batch, now: p.batch };
        break;
      }
    }
  }
  return null;
}

/** Whether this step's coordinator sent an expired transactional.id's tombstone to its host broker (the next steps of the same instant). */
function tombstoneWritten(ctx: NarrationContext): boolean {
  const { step, trace } = ctx;
  for (let i = step.i + 1; i < Math.min(trace.steps.length, step.i + 12); i++) {
    const s = trace.steps.at(i);
    if (!s || s.t !== step.t) return false;
    if (s.kind === 'call' && s.from === step.actor && s.label === 'appendTxnState') return true;
  }
  return false;
}

export function timerClause(ctx: NarrationContext): string {
  const { lang, names, step } = ctx;
  const who = names.actor(step.actor);
  const d = (step.detail ?? {}) as P;
  const sent = sentText(ctx);
  const sends = sent ? say(lang, ` and sends ${sent}`, ` ${josa(sent, '을/를')} 보냅니다.`) : '';
  // a broker's replication and purgatory timers, its BrokerHeartbeat
  const replication = replicationTimerClause(ctx);
  if (replication) return replication;
  switch (step.label) {
    case 'runNext': {
      const call = nextCall(ctx);
      return call
        ? say(
            lang,
            `${who} runs its next scripted operation: ${call}()`,
            `${josa(who, '이/가')} 다음 작업 ${josa(`${call}()`, '을/를')} 실행합니다.`,
          )
        : say(lang, `${who} moves to its next scripted operation`, `${josa(who, '이/가')} 다음 작업으로 넘어갑니다.`);
    }
    case 'lingerExpired':
      return sent
        ? say(
            lang,
            `linger.ms passed: ${who} closes its batch${sends}`,
            `linger.ms가 지나 ${josa(who, '이/가')} 배치를 닫고${sent ? ` ${josa(sent, '을/를')} 보냅니다.` : '.'}`,
          )
        : say(lang, `linger.ms passed for ${who}, with nothing to send yet`, `${who}의 linger.ms가 지났지만 아직 보낼 것이 없습니다.`);
    case 'retryBackoffExpired': {
      // a stale timer: the batch went out earlier (a newer leader lets it skip its backoff, KIP-951) or waits for something else
      if (!sent)
        return say(
          lang,
          `retry.backoff.ms passed for ${who}, with nothing to send now`,
          `${who}의 retry.backoff.ms가 지났지만 지금 보낼 것이 없습니다.`,
        );
      const cfg =
        ctx.trace.resolved.producers[names.client(step.actor)] ?? ctx.trace.resolved.producers[`${names.client(step.actor)}.producer`];
      if (cfg && !cfg['enable.idempotence'])
        return say(
          lang,
          `retry.backoff.ms passed: ${who} retries${sends} — the same records again, with no producerId or sequence the broker could recognise`,
          `retry.backoff.ms가 지나 ${josa(who, '이/가')} 다시 시도합니다.${sent ? ` ${josa(sent, '을/를')} 보냅니다.` : ''} 같은 레코드지만 브로커가 알아볼 producerId나 시퀀스가 없습니다.`,
        );
      const moved = rewrittenRetry(ctx);
      if (moved) {
        const { was, now } = moved;
        return was.producerEpoch !== now.producerEpoch
          ? say(
              lang,
              `retry.backoff.ms passed: ${who} retries${sends} — the same batch, rewritten by its epoch bump: epoch ${now.producerEpoch}, sequence ${now.baseSequence} (first sent as epoch ${was.producerEpoch}, sequence ${was.baseSequence})`,
              `retry.backoff.ms가 지나 ${josa(who, '이/가')} 다시 시도합니다.${sent ? ` ${josa(sent, '을/를')} 보냅니다.` : ''} 같은 배치지만 epoch 증가로 다시 쓰여 epoch ${now.producerEpoch}, 시퀀스 ${now.baseSequence}입니다(처음에는 epoch ${was.producerEpoch}, 시퀀스 ${josa(String(was.baseSequence), '으로/로')} 보냈습니다).`,
            )
          : say(
              lang,
              `retry.backoff.ms passed: ${who} retries${sends} — the same batch with the same producerId and epoch, its sequence moved from ${was.baseSequence} to ${now.baseSequence} after an earlier batch failed`,
              `retry.backoff.ms가 지나 ${josa(who, '이/가')} 다시 시도합니다.${sent ? ` ${josa(sent, '을/를')} 보냅니다.` : ''} 같은 producerId와 epoch의 같은 배치지만, 앞선 배치가 실패해 시퀀스가 ${was.baseSequence}에서 ${josa(String(now.baseSequence), '으로/로')} 바뀌었습니다.`,
            );
      }
      return say(
        lang,
        `retry.backoff.ms passed: ${who} retries${sends} — the same batch with the same producerId, epoch and sequence`,
        `retry.backoff.ms가 지나 ${josa(who, '이/가')} 다시 시도합니다.${sent ? ` ${josa(sent, '을/를')} 보냅니다.` : ''} 같은 producerId, epoch, 시퀀스를 가진 같은 배치입니다.`,
      );
    }
    case 'txnRetryBackoffExpired':
      return say(
        lang,
        `${who} retries its coordinator request${sends}`,
        `${josa(who, '이/가')} 코디네이터 요청을 다시 시도합니다.${sent ? ` ${josa(sent, '을/를')} 보냅니다.` : ''}`,
      );
    case 'fetchWaitExpired': {
      const above = fetchAboveItsBound(ctx);
      if (above)
        return say(
          lang,
          `The Fetch asks for offset ${above.offset}${above.where ? ` of ${above.where}` : ''}, above the ${above.bound} (${above.at}) it may read: ${who} answers it at once, empty${above.where ? ', every partition of it' : ''} — Kafka holds a fetch only at that bound — and the consumer fetches again`,
          `Fetch가 ${above.where ? `${above.where}에서 ` : ''}읽을 수 있는 ${above.bound}(${above.at})보다 큰 ${josa(`offset ${above.offset}`, '을/를')} 요청하므로 ${josa(who, '이/가')} 곧바로 ${above.where ? '모든 파티션에 ' : ''}빈 응답을 보냅니다. Kafka는 그 경계에 있는 Fetch만 붙잡아 둡니다. 컨슈머는 곧 다시 Fetch합니다.`,
        );
      return say(
        lang,
        `fetch.max.wait.ms passed with nothing new: ${who} answers the held Fetch empty`,
        `fetch.max.wait.ms 동안 새 데이터가 없어 ${josa(who, '이/가')} 붙잡아 둔 Fetch에 빈 응답을 보냅니다.`,
      );
    }
    case 'heartbeatDue': {
      const to = ctx.step.sent.map((id) => ctx.trace.envelopes.at(id)).find((e) => e?.rpc === 'Heartbeat');
      const coordinator = to ? names.actor(to.to) : say(lang, 'the group coordinator', '그룹 코디네이터');
      return say(
        lang,
        `heartbeat.interval.ms passed: ${who} sends a Heartbeat to ${coordinator}`,
        `heartbeat.interval.ms가 지나 ${josa(who, '이/가')} ${coordinator}에 하트비트를 보냅니다.`,
      );
    }
    case 'commitDeadline':
      // the timeout's own fact (clientError TimeoutException) follows when the commit still waited for its coordinator
      return say(
        lang,
        `${poss(who, 'commit')} deadline has passed (commitSync(): default.api.timeout.ms; close(): its timeout) — a commit still waiting for the group coordinator gives up without a request (TimeoutException); one already sent waits for its answer`,
        `${who}의 커밋 기한이 지났습니다(commitSync(): default.api.timeout.ms, close(): 그 제한 시간). 아직 그룹 코디네이터를 기다리던 커밋은 요청을 보내지 않고 포기합니다(TimeoutException). 이미 보낸 커밋은 응답을 기다립니다.`,
      );
    case 'heartbeatSessionExpired':
      // a session timer that gave up on the coordinator has its note; this one found nothing to do yet
      return say(
        lang,
        `${poss(who, 'session timer')} fired, but the heartbeat thread gives nothing up now: it sees an expired session only when it wakes (every retry.backoff.ms), so it checks again at its next wake-up; or the group coordinator is already unknown (being looked up), or the member is no longer in its group`,
        `${who}의 세션 타이머가 울렸지만 하트비트 스레드는 지금 아무것도 포기하지 않습니다. 세션 만료는 스레드가 깨어날 때(retry.backoff.ms마다)만 확인하므로 다음에 깨어날 때 다시 확인합니다. 또는 그룹 코디네이터를 이미 모르는 상태(찾는 중)이거나 멤버가 더는 그룹에 없습니다.`,
      );
    case 'pollTimeoutExpired':
      // a poll timer that made the member leave has its note; this one found it inside poll() or out of its group
      return say(
        lang,
        `${who} returned from its last poll() max.poll.interval.ms ago, but it is waiting in poll() again (or is not in its group): nothing happens`,
        `${josa(who, '이/가')} 마지막 poll()에서 돌아온 지 max.poll.interval.ms가 지났지만, 다시 poll()에서 기다리는 중이거나 그룹에 속해 있지 않아 아무 일도 일어나지 않습니다.`,
      );
    case 'heartbeatThreadLookup':
      // AbstractCoordinator.HeartbeatThread: coordinatorUnknown() → lookupCoordinator(), then wait(retry.backoff.ms)
      return sent
        ? say(
            lang,
            `${poss(who, 'heartbeat thread')} wakes after retry.backoff.ms with the group coordinator unknown${sends}`,
            `${who}의 하트비트 스레드가 retry.backoff.ms 뒤에 깨어나 아직 모르는 그룹 코디네이터를 찾습니다. ${josa(sent, '을/를')} 보냅니다.`,
          )
        : say(
            lang,
            `${poss(who, 'heartbeat thread')} wakes after retry.backoff.ms: no FindCoordinator now — one is still in flight, the coordinator is known again, or the member is no longer in its group`,
            `${who}의 하트비트 스레드가 retry.backoff.ms 뒤에 깨어났지만 지금은 FindCoordinator를 보내지 않습니다. 보낸 요청이 아직 진행 중이거나, 코디네이터를 다시 알게 되었거나, 멤버가 더는 그룹에 없습니다.`,
          );
    case 'coordinatorLookupRetry':
      return coordinatorLookupRetryClause(ctx, who, sent, d);
    case 'rejoinBackoff':
      return say(lang, `${who} tries to join its group again${sends}`, `${josa(who, '이/가')} 그룹에 다시 참여를 시도합니다.`);
    case 'reconnectBackoffExpired': {
      const node = names.actor(str(d.node));
      return sent
        ? say(
            lang,
            `${poss(who, 'reconnect backoff')} for ${node} has passed: it may connect again${sends} — that request is its connection attempt`,
            `${josa(who, '이/가')} ${node}에 대한 재연결 backoff가 지나 다시 연결을 시도합니다. ${josa(sent, '을/를')} 보내고, 이 요청이 연결 시도입니다.`,
          )
        : say(
            lang,
            `${poss(who, 'reconnect backoff')} for ${node} has passed: it may connect again when it has something to send there`,
            `${josa(who, '이/가')} ${node}에 대한 재연결 backoff가 지났습니다. 보낼 것이 생기면 다시 연결합니다.`,
          );
    }
    case 'fetchRetry':
      return say(lang, `${who} fetches again${sends}`, `${josa(who, '이/가')} 다시 Fetch합니다.`);
    case 'offsetsRetry':
      return say(lang, `${who} asks for its committed offsets again${sends}`, `${josa(who, '이/가')} 커밋된 offset을 다시 요청합니다.`);
    case 'sessionExpired':
      return say(
        lang,
        `session.timeout.ms passed without a heartbeat from ${str(d.memberId) || 'a member'}: ${who} removes it from the group`,
        `session.timeout.ms 동안 ${str(d.memberId) || '멤버'}의 하트비트가 없어 ${josa(who, '이/가')} 그룹에서 제거합니다.`,
      );
    case 'joinPhaseCheck':
      return say(
        lang,
        `${who} checks whether every member of group ${str(d.groupId)} has rejoined`,
        `${josa(who, '이/가')} 그룹 ${str(d.groupId)}의 모든 멤버가 다시 참여했는지 확인합니다.`,
      );
    case 'txnTimeoutCheck':
      return say(
        lang,
        `${who} checks transaction ${str(d.transactionalId)} against transaction.timeout.ms: still within it`,
        `${josa(who, '이/가')} 트랜잭션 ${str(d.transactionalId)}의 transaction.timeout.ms를 확인합니다. 아직 시간이 남았습니다.`,
      );
    case 'txnIdExpirationCheck': {
      const id = str(d.transactionalId);
      // an expiry the one-replica coordinator made has its txnState fact; the hosted one writes first
      if (tombstoneWritten(ctx))
        return say(
          lang,
          `${poss(who, 'transactional.id expiration run')} finds ${id} idle for transactional.id.expiration.ms: it writes a tombstone for it to __transaction_state (acks=-1) and forgets the id once the write is acknowledged; a request for ${id} meanwhile is refused CONCURRENT_TRANSACTIONS`,
          `${josa(who, '이/가')} transactional.id 만료 검사에서 ${josa(id, '이/가')} transactional.id.expiration.ms 동안 쉬었음을 보고 __transaction_state에 툼스톤을 씁니다(acks=-1). 쓰기가 확인되면 이 transactional.id를 잊습니다. 그동안 ${id}에 대한 요청은 CONCURRENT_TRANSACTIONS로 거절됩니다.`,
        );
      return say(
        lang,
        `${poss(who, 'transactional.id expiration run')} does not expire ${id}: it was updated since, or a write of it to __transaction_state is in flight; its run is armed again for the deadline its last update gives`,
        `${josa(who, '이/가')} transactional.id 만료 검사에서 ${josa(id, '을/를')} 만료시키지 않습니다. 그 뒤에 갱신됐거나 __transaction_state에 쓰는 중이기 때문입니다. 마지막 갱신 시각에 맞춰 다음 검사를 다시 잡습니다.`,
      );
    }
    case 'markerRetry':
      // the pause's end queues the refused markers again; they go in the broker's next request, which
      // waits while another WriteTxnMarkers is in flight to that broker (one per broker)
      return sent
        ? say(
            lang,
            `${who} queues again the transaction markers an answer refused${sends}`,
            `${josa(who, '이/가')} 응답에서 거절된 트랜잭션 마커를 다시 대기열에 넣고 ${josa(sent, '을/를')} 보냅니다.`,
          )
        : say(
            lang,
            `${who} queues again the transaction markers an answer refused: they go in the broker’s next WriteTxnMarkers, once it has none in flight`,
            `${josa(who, '이/가')} 응답에서 거절된 트랜잭션 마커를 다시 대기열에 넣습니다. 그 브로커에 진행 중인 WriteTxnMarkers가 없을 때 다음 요청에 담아 보냅니다.`,
          );
    case 'loaded':
      return say(lang, `${who} finished loading __transaction_state`, `${josa(who, '이/가')} __transaction_state 로딩을 마쳤습니다.`);
    case 'continue': {
      const call = nextCall(ctx);
      if (step.sent.length)
        return say(
          lang,
          `${who} moves on in its loop${sends}`,
          `${josa(who, '이/가')} 루프의 다음 단계로 넘어갑니다.${sent ? ` ${josa(sent, '을/를')} 보냅니다.` : ''}`,
        );
      return call
        ? say(lang, `${who} moves on in its loop: next, ${call}()`, `${josa(who, '이/가')} 루프의 다음 단계로 넘어갑니다: ${call}().`)
        : say(
            lang,
            `${who} moves on in its poll → process → commit loop`,
            `${josa(who, '이/가')} poll → 처리 → 커밋 루프의 다음 단계로 넘어갑니다.`,
          );
    }
    case 'autoCommitDue':
      return say(
        lang,
        step.sent.length
          ? `auto.commit.interval.ms passed while poll() waited: ${who} auto-commits the positions of the records it already returned${sends}`
          : `auto.commit.interval.ms check while poll() waits: ${who} has nothing new to commit`,
        step.sent.length
          ? `poll()이 기다리는 동안 auto.commit.interval.ms가 지나 ${josa(who, '이/가')} 이미 돌려준 레코드의 위치를 자동 커밋합니다.`
          : `poll()이 기다리는 동안 auto.commit.interval.ms를 확인합니다. ${josa(who, '은/는')} 새로 커밋할 것이 없습니다.`,
      );
    case 'commitDue':
      return say(
        lang,
        `commit.interval.ms passed: ${who} commits what it processed since the last commit${sends}`,
        `commit.interval.ms가 지나 ${josa(who, '이/가')} 마지막 커밋 이후 처리한 것을 커밋합니다.`,
      );
    case 'pollOutbox':
      return say(
        lang,
        `${who} polls the outbox table for new rows${sends}`,
        `${josa(who, '이/가')} outbox 테이블에 새 행이 있는지 조회합니다.`,
      );
    case 'recordPosition':
      return say(
        lang,
        `${who} records in the database how far it has published${sends} — until then a crash republishes those rows`,
        `${josa(who, '이/가')} 어디까지 발행했는지 데이터베이스에 기록합니다. 그 전에 중단되면 그 행들을 다시 발행합니다.`,
      );
    case 'maxBlockExpired': {
      const call = str(d.call);
      return say(
        lang,
        `max.block.ms has passed since ${poss(who, `${call}()`)} call: if it still waits, it throws TimeoutException now`,
        `${who}의 ${call}() 호출 뒤 max.block.ms가 지났습니다. 아직 기다리는 중이면 지금 TimeoutException을 던집니다.`,
      );
    }
    case 'abortTimeout':
      return say(
        lang,
        `${who} waited max.block.ms for abortTransaction()${sends}`,
        `${josa(who, '이/가')} abortTransaction()을 max.block.ms 동안 기다렸습니다.`,
      );
    case 'httpTimeout':
      return say(
        lang,
        `${who}'s previous HTTP call got no answer: it calls again${sends}`,
        `${who}의 이전 HTTP 호출이 응답을 받지 못해 다시 호출합니다.`,
      );
    case 'dbTimeout':
      return say(
        lang,
        `${who}'s previous database write got no answer: it writes again${sends}`,
        `${who}의 이전 데이터베이스 쓰기가 응답을 받지 못해 다시 씁니다.`,
      );
    case 'offsetsQueryRetry':
      return say(
        lang,
        `${who} asks the database for its stored offsets again${sends}`,
        `${josa(who, '이/가')} 데이터베이스에 저장된 offset을 다시 조회합니다.`,
      );
    case 'readPosition':
      return say(
        lang,
        `${who} reads its recorded position from the database again${sends}`,
        `${josa(who, '이/가')} 데이터베이스에 기록된 위치를 다시 읽습니다.`,
      );
    case 'txnCommitDue':
      return say(
        lang,
        `${who}'s transaction has been open for its commit interval: it is committed after the record in hand${sends}`,
        `${who}의 트랜잭션이 커밋 간격만큼 열려 있었습니다. 처리 중인 레코드 다음에 커밋합니다.`,
      );
    case 'metadataUpdateDue':
      return say(
        lang,
        `${who} is due to refresh its metadata (metadata.max.age.ms, or the backoff after a failed update)${sends}`,
        `${josa(who, '이/가')} 메타데이터를 새로 받을 때가 됐습니다(metadata.max.age.ms, 또는 실패한 갱신 뒤의 backoff).`,
      );
    default:
      return say(lang, `${who}: timer ${step.label} fired${sends}`, `${who}: 타이머 ${josa(step.label, '이/가')} 울렸습니다.`);
  }
}

/** send() returned after waitOnMetadata held it: the metadata came, or max.block.ms passed first. */
function sendAfterMetadataClause(lang: Language, who: string, d: P): string {
  const ms = groupDigits(num(d.waitedMs));
  if (d.failed !== undefined)
    return say(
      lang,
      `send() returned to ${who} after ${ms} ms in waitOnMetadata, its record failed with ${str(d.failed)}: the future send() returns and the record's callback carry it, nothing was thrown`,
      `send()가 waitOnMetadata에서 ${ms} ms를 기다린 뒤 반환됐고, 레코드는 ${josa(str(d.failed), '으로/로')} 실패했습니다. 예외를 던지지 않고 send()가 돌려준 future와 레코드의 callback으로 알립니다.`,
    );
  const tp = topicPartitionKey(str(d.topic), num(d.partition));
  return say(
    lang,
    `send() returned to ${who} once the metadata came, after ${ms} ms in waitOnMetadata: the record waits in the producer's batch for ${tp}`,
    `메타데이터가 도착해 send()가 waitOnMetadata에서 ${ms} ms를 기다린 뒤 반환됐습니다. 레코드는 ${tp}용 배치에서 기다립니다.`,
  );
}

function replyClause(ctx: NarrationContext, who: string, d: P): string {
  const { lang } = ctx;
  const call = str(d.call);
  if (d.ok === false) {
    const error = str(d.error);
    const why = explainError(error, lang);
    return say(
      lang,
      `${who}'s ${call}() failed: ${error}${why ? ` (${why})` : ''}`,
      `${who}의 ${josa(`${call}()`, '이/가')} 실패했습니다: ${translateRefusal(error, 'ko')}${why ? `(${why})` : ''}.`,
    );
  }
  switch (call) {
    case 'send':
      if (typeof d.bufferWaitedMs === 'number')
        return sendAfterBufferClause(
          lang,
          who,
          d.bufferWaitedMs,
          d.failed === undefined ? null : str(d.failed),
          topicPartitionKey(str(d.topic), num(d.partition)),
        );
      if (typeof d.waitedMs === 'number') return sendAfterMetadataClause(lang, who, d);
      return say(
        lang,
        `send() returned to ${who} at once: the record waits in the producer's batch for ${topicPartitionKey(str(d.topic), num(d.partition))} (send is asynchronous)`,
        `send()는 바로 반환됐습니다. 레코드는 ${topicPartitionKey(str(d.topic), num(d.partition))}용 배치에서 기다립니다(send는 비동기입니다).`,
      );
    case 'poll': {
      const recs = Array.isArray(d.records) ? (d.records as P[]) : [];
      return recs.length
        ? say(
            lang,
            `poll() returned ${count(recs.length, 'record')} to ${who}`,
            `poll()이 ${who}에게 레코드 ${groupDigits(recs.length)}개를 돌려줬습니다.`,
          )
        : say(lang, `poll() returned nothing to ${who}`, `poll()이 ${who}에게 아무것도 돌려주지 않았습니다.`);
    }
    default:
      return say(lang, `${call}() completed for ${who}`, `${who}의 ${josa(`${call}()`, '이/가')} 완료됐습니다.`);
  }
}

export function callClause(ctx: NarrationContext): string {
  const { lang, names, step } = ctx;
  const target = names.actor(step.actor);
  const caller = names.actor(step.from ?? '');
  const d = (step.detail ?? {}) as P;
  const sent = sentText(ctx);
  if (d.again === true) return callAgainClause(lang, caller, target, step.label);
  switch (step.label) {
    case 'reply':
      return replyClause(ctx, target, d);
    case 'send': {
      const headers = (d.headers ?? {}) as Record<string, string>;
      const ev = headers.event_id ? `, event_id=${headers.event_id}` : '';
      const args = `${str(d.topic)}, key=${d.key === null ? 'null' : str(d.key)}${ev}`;
      return say(
        lang,
        `${caller} calls send(${args}); ${target} puts the record into a batch`,
        `${josa(caller, '이/가')} send(${args})를 호출합니다. ${josa(target, '이/가')} 레코드를 배치에 넣습니다.`,
      );
    }
    case 'poll':
      return say(
        lang,
        `${caller} calls poll()${step.sent.length ? `; ${target} sends ${sent}` : ''}`,
        `${josa(caller, '이/가')} poll()을 호출합니다.${step.sent.length ? ` ${josa(target, '이/가')} ${josa(sent, '을/를')} 보냅니다.` : ''}`,
      );
    case 'commitSync': {
      const offsets = offsetList(d.offsets);
      const mode = processingMode(ctx, names.client(step.actor));
      const pitfall =
        mode === 'commit-last-processed'
          ? say(
              lang,
              ' — the last processed offset, not the next one to read',
              ' 다음에 읽을 위치가 아니라 마지막으로 처리한 offset입니다.',
            )
          : say(lang, ': the next offsets to read', ' 다음에 읽을 offset입니다.');
      return say(
        lang,
        `${caller} calls commitSync(${offsets})${pitfall}`,
        `${josa(caller, '이/가')} commitSync(${offsets})를 호출합니다.${pitfall}`,
      );
    }
    case 'initTransactions':
      return say(
        lang,
        `${caller} calls initTransactions(): ${target} registers its transactional.id with the transaction coordinator; if an older instance with the same transactional.id has a transaction open, it is aborted and that instance fenced`,
        `${josa(caller, '이/가')} initTransactions()를 호출합니다. ${josa(target, '이/가')} 트랜잭션 코디네이터에 transactional.id를 등록합니다. 같은 transactional.id를 쓰는 이전 인스턴스에 열린 트랜잭션이 있으면 그 트랜잭션은 취소되고 그 인스턴스는 펜싱됩니다.`,
      );
    case 'beginTransaction':
      return say(
        lang,
        `${caller} calls beginTransaction(): a local state change only — the coordinator hears of it with the first partition`,
        `${josa(caller, '이/가')} beginTransaction()을 호출합니다. 로컬 상태만 바뀌고 코디네이터는 첫 파티션이 추가될 때 알게 됩니다.`,
      );
    case 'sendOffsetsToTransaction':
      return say(
        lang,
        `${caller} calls sendOffsetsToTransaction(${offsetList(d.offsets)}, group ${str(d.groupId)} generation ${num(d.generationId)}): the next offsets to read join the transaction instead of a separate commit`,
        `${josa(caller, '이/가')} sendOffsetsToTransaction(${offsetList(d.offsets)}, 그룹 ${str(d.groupId)}, generation ${num(d.generationId)})을 호출합니다. 별도 커밋 대신 다음에 읽을 offset이 트랜잭션에 들어갑니다.`,
      );
    case 'commitTransaction':
      return say(
        lang,
        `${caller} calls commitTransaction(): ${target} first flushes every pending record, then sends EndTxn(COMMIT)`,
        `${josa(caller, '이/가')} commitTransaction()을 호출합니다. ${josa(target, '은/는')} 남은 레코드를 모두 보낸 뒤 EndTxn(COMMIT)을 보냅니다.`,
      );
    case 'abortTransaction':
      return say(
        lang,
        `${caller} calls abortTransaction(): what was written stays in the log, and ABORT markers will hide it from read_committed consumers`,
        `${josa(caller, '이/가')} abortTransaction()을 호출합니다. 이미 쓴 레코드는 로그에 남고 ABORT 마커가 read_committed 컨슈머에게서 숨깁니다.`,
      );
    case 'flush':
      return say(
        lang,
        `${caller} calls flush(): it waits until every record is acknowledged`,
        `${josa(caller, '이/가')} flush()를 호출해 모든 레코드가 확인될 때까지 기다립니다.`,
      );
    case 'close': {
      // a Kafka Streams thread that died closes its clients (streams/shutdown.ts)
      if (callerShuttingDown(ctx)) {
        const r = role(step.actor);
        if (r === 'consumer')
          return say(
            lang,
            `${caller}, whose stream thread died, closes ${target}: unsubscribe() sends a LeaveGroup first, so its partitions go to the other members at once`,
            `스트림 스레드가 죽은 ${josa(caller, '이/가')} ${josa(target, '을/를')} 닫습니다. unsubscribe()가 먼저 LeaveGroup을 보내므로 파티션이 곧바로 다른 멤버에게 넘어갑니다.`,
          );
        return say(
          lang,
          `${caller}, whose stream thread died, closes ${target}`,
          `스트림 스레드가 죽은 ${josa(caller, '이/가')} ${josa(target, '을/를')} 닫습니다.`,
        );
      }
      return say(
        lang,
        `${caller} closes ${target}; a new one starts from scratch`,
        `${josa(caller, '이/가')} ${josa(target, '을/를')} 닫습니다. 새 인스턴스는 처음부터 시작합니다.`,
      );
    }
    case 'seekToCommitted':
      // a Kafka Streams thread does it for a corrupted task (streams/sendErrors.ts)
      if (processKind(ctx, processOf(step.from ?? '')) === 'streams')
        return say(
          lang,
          `${caller} rewinds ${target} to the group's committed offsets: the task is corrupted, and the records since the last commit are processed again`,
          `${josa(caller, '이/가')} ${josa(target, '을/를')} 그룹의 커밋된 offset으로 되돌립니다. 태스크가 손상되어 마지막 커밋 이후의 레코드를 다시 처리합니다.`,
        );
      return say(
        lang,
        `${caller} rewinds ${target} to the group's committed offsets: abortTransaction() does not rewind the consumer by itself`,
        `${josa(caller, '이/가')} ${josa(target, '을/를')} 그룹의 커밋된 offset으로 되돌립니다. abortTransaction()은 컨슈머를 되돌리지 않기 때문입니다.`,
      );
    case 'sendFailed': {
      const where = topicPartitionKey(str(d.topic), num(d.partition));
      return say(
        lang,
        `${caller} reports a failed send to ${where} (${str(d.error)}) through the record's Callback: ${target} keeps the exception, and its next send() or flush() throws it`,
        `${josa(caller, '이/가')} ${josa(where, '으로/로')}의 전송 실패(${str(d.error)})를 레코드의 Callback으로 알립니다. ${josa(target, '이/가')} 이 예외를 보관하고, 다음 send()나 flush()에서 던집니다.`,
      );
    }
    case 'endOffsets':
      return d.isolationLevel === 'read_uncommitted'
        ? say(
            lang,
            `${caller} asks ${target} for the changelog's log end offset (endOffsets, read_uncommitted): the store is restored when the read_committed restore consumer gets there`,
            `${josa(caller, '이/가')} ${target}에게 changelog의 LEO(로그 끝 offset, endOffsets, read_uncommitted)를 묻습니다. read_committed 복원 컨슈머가 거기까지 읽으면 복원이 끝납니다.`,
          )
        : say(
            lang,
            `${caller} asks ${target} where the changelog ends (endOffsets), to know when the store is fully restored`,
            `${josa(caller, '이/가')} 저장소 복원이 언제 끝나는지 알기 위해 ${target}에게 changelog의 끝(endOffsets)을 묻습니다.`,
          );
    case 'resubscribe':
      return say(
        lang,
        `${caller} makes ${target} give up its partitions and rejoin the group (unsubscribe and subscribe again); it will read from the committed offsets${step.sent.length ? `; ${target} sends ${sent}` : ''}`,
        `${josa(caller, '이/가')} ${josa(target, '이/가')} 파티션을 내려놓고 그룹에 다시 참여하게 합니다(unsubscribe 후 다시 subscribe). 이후 커밋된 offset부터 읽습니다.`,
      );
    case 'seekToBeginning':
      return say(
        lang,
        `${caller} rewinds ${target} to the beginning of the changelog: the state store is rebuilt from it`,
        `${josa(caller, '이/가')} ${josa(target, '을/를')} changelog 처음으로 되돌립니다. 상태 저장소를 여기서부터 다시 만듭니다.`,
      );
    case 'seek':
      return say(lang, `${caller} seeks ${target}`, `${josa(caller, '이/가')} ${target}의 위치를 옮깁니다.`);
    case 'useExternalOffsets':
      return say(
        lang,
        `${target} will start ${topicPartitionKey(str(d.topic), num(d.partition))} at offset ${num(d.offset)}, the position stored in the database with the results`,
        `${josa(target, '은/는')} ${josa(topicPartitionKey(str(d.topic), num(d.partition)), '을/를')} 결과와 함께 데이터베이스에 저장된 offset ${num(d.offset)}부터 읽습니다.`,
      );
    case 'restart': {
      const r = role(step.actor);
      const fresh =
        r === 'producer'
          ? say(
              lang,
              'a new KafkaProducer: no producerId, no sequences, no open transaction',
              '새 KafkaProducer: producerId도, 시퀀스도, 열린 트랜잭션도 없습니다',
            )
          : r === 'consumer'
            ? say(
                lang,
                'a new KafkaConsumer: it must rejoin its group and fetch the committed offsets',
                '새 KafkaConsumer: 그룹에 다시 참여하고 커밋된 offset을 가져와야 합니다',
              )
            : say(lang, 'nothing it held in memory survived', '메모리에 있던 것은 하나도 남지 않았습니다');
      return say(
        lang,
        `${target} starts again after the restart — ${fresh}`,
        `재시작 후 ${josa(target, '이/가')} 다시 시작합니다. ${fresh}.`,
      );
    }
    default:
      return (
        groupVerificationCallClause(ctx) ??
        say(
          lang,
          `${caller} calls ${step.label}() on ${target}`,
          `${josa(caller, '이/가')} ${target}의 ${josa(`${step.label}()`, '을/를')} 호출합니다.`,
        )
      );
  }
}

export function bootClause(ctx: NarrationContext): string {
  const { lang, names, step } = ctx;
  const who = names.actor(step.actor);
  const r = role(step.actor);
  const client = names.client(step.actor);
  if (r === 'producer') {
    const cfg = actorConfig(ctx, step.actor);
    if (cfg?.['transactional.id'])
      return say(
        lang,
        `${who} starts with transactional.id ${String(cfg['transactional.id'])}; it waits for initTransactions()`,
        `${josa(who, '이/가')} transactional.id ${josa(String(cfg['transactional.id']), '으로/로')} 시작해 initTransactions()를 기다립니다.`,
      );
    if (cfg?.['enable.idempotence'])
      return say(
        lang,
        `${who} starts with enable.idempotence=true and asks for a producerId right away`,
        `${josa(who, '이/가')} enable.idempotence=true로 시작해 바로 producerId를 요청합니다.`,
      );
    return say(
      lang,
      `${who} starts with enable.idempotence=false: no producerId, so the broker cannot recognise its retries`,
      `${josa(who, '이/가')} enable.idempotence=false로 시작합니다. producerId가 없어 브로커가 재시도를 알아보지 못합니다.`,
    );
  }
  if (r === 'consumer' || r === 'restore') {
    const cfg = actorConfig(ctx, step.actor);
    const group = cfg?.['group.id'];
    return group
      ? say(
          lang,
          `${who} starts (${String(cfg?.['isolation.level'])}, enable.auto.commit=${String(cfg?.['enable.auto.commit'])}) and asks to join group ${String(group)}`,
          `${josa(who, '이/가')} 시작해(${String(cfg?.['isolation.level'])}, enable.auto.commit=${String(cfg?.['enable.auto.commit'])}) 그룹 ${String(group)}에 참여를 요청합니다.`,
        )
      : r === 'restore'
        ? say(
            lang,
            `${who} starts: it reads the changelog to rebuild the state store`,
            `${josa(who, '이/가')} 시작합니다. changelog를 읽어 상태 저장소를 다시 만듭니다.`,
          )
        : say(
            lang,
            `${who} starts without a group.id: it reads its partitions and cannot commit`,
            `${josa(who, '이/가')} group.id 없이 시작합니다. 파티션을 읽기만 하고 커밋할 수 없습니다.`,
          );
  }
  if (r === 'app') {
    const mode = processingMode(ctx, client);
    return mode
      ? say(lang, `${who} starts its loop in ${mode} mode`, `${josa(who, '이/가')} ${mode} 방식으로 루프를 시작합니다.`)
      : say(lang, `${who} starts`, `${josa(who, '이/가')} 시작합니다.`);
  }
  return say(lang, `${who} starts`, `${josa(who, '이/가')} 시작합니다.`);
}

/** The same transactional call again after its TimeoutException (producerTimeouts.ts): no new request. */
function callAgainClause(lang: Language, caller: string, target: string, call: string): string {
  return say(
    lang,
    `${caller} calls ${call}() again after its TimeoutException: ${target} sends nothing new — the call waits, for max.block.ms again, for the result of the request already under way, and returns at once if that is done`,
    `${josa(caller, '이/가')} TimeoutException 뒤에 ${josa(`${call}()`, '을/를')} 다시 호출합니다. ${josa(target, '은/는')} 새 요청을 보내지 않습니다. 이미 진행 중인 요청의 결과를 다시 max.block.ms 동안 기다리고, 이미 끝났다면 곧바로 반환합니다.`,
  );
}
