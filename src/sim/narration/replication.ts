/**
 * Replication between brokers, said as replication: a follower's Fetch is a replica fetch (no
 * isolation level, no LSO: the leader reads for it up to its log end offset), its answer is what the
 * follower copied and the leader's high watermark it learnt. (Kafka: ReplicaFetcherThread,
 * Partition.fetchRecords; docs/reference/kafka-behaviour.md §12.)
 */
import type { EnvelopeRecord } from '../kernel/envelope';
import { topicPartitionKey } from '../protocol/topicPartition';
import type { NarrationContext } from './context';
import { explainError } from './errors';
import { count, josa, range, say } from './language';

type P = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));

/** A Fetch payload sent by a follower (FetchRequest with a replicaId), not by a consumer. */
export function isReplicaFetch(payload: P | null | undefined): boolean {
  return payload?.replicaId !== undefined && payload?.replicaId !== null;
}

/** The request a response envelope answers. */
function requestOf(ctx: NarrationContext, env: EnvelopeRecord | null): EnvelopeRecord | null {
  return env?.inReplyTo !== null && env?.inReplyTo !== undefined ? (ctx.trace.envelopes.at(env.inReplyTo) ?? null) : null;
}

/** A FetchResponse answering a follower's Fetch. */
export function isReplicaFetchResponse(ctx: NarrationContext): boolean {
  return isReplicaFetch(requestOf(ctx, ctx.envelope)?.payload as P | undefined);
}

function errorText(ctx: NarrationContext, error: string): { en: string; ko: string } {
  const why = explainError(error, ctx.lang);
  return { en: ` with ${error}${why ? `: ${why}` : ''}`, ko: ` ${error}${why ? `(${why})` : ''}` };
}

/** The batches of a replica FetchResponse: how many records, and their offsets. */
function copied(batches: readonly P[]): { records: number; first: number; last: number } | null {
  if (batches.length === 0) return null;
  const records = batches.reduce((n, b) => n + (Array.isArray(b.records) ? b.records.length : 0), 0);
  return { records, first: num(batches[0]?.baseOffset), last: num(batches[batches.length - 1]?.lastOffset) };
}

/**
 * The follower receives the leader's answer (ReplicaFetcherThread.processPartitionData): it appends
 * the batches as they are, its log end offset moves past them, and its high watermark becomes
 * min(the leader's HW in the answer, its own LEO). It then fetches again.
 */
export function replicaFetchResponseClause(ctx: NarrationContext): string {
  const { lang, names, step } = ctx;
  const env = ctx.envelope;
  const p: P = (env?.payload as P) ?? {};
  const req: P = (requestOf(ctx, env)?.payload as P) ?? {};
  const follower = names.actor(step.actor);
  const leader = names.actor(step.from ?? env?.from ?? '');
  const where = topicPartitionKey(str(p.topic), num(p.partition));
  const error = str(p.error);
  if (error && error !== 'NONE') {
    const e = errorText(ctx, error);
    return say(
      lang,
      `${leader} answered the replica Fetch of ${where} from ${follower}${e.en}; ${follower} copies nothing and fetches again after replica.fetch.backoff.ms`,
      `${josa(leader, '이/가')} ${follower}의 ${where} 복제 Fetch에${e.ko} 응답했습니다. ${josa(follower, '은/는')} 아무것도 복제하지 않고 replica.fetch.backoff.ms 뒤에 다시 Fetch합니다.`,
    );
  }
  const next = step.sent.map((id) => ctx.trace.envelopes.at(id)).find((e) => e?.rpc === 'Fetch');
  if (!next)
    return say(
      lang,
      `${follower} sets aside this answer from ${leader} for ${where}: it is no longer waiting for it (its leader or its fetch changed since)`,
      `${josa(follower, '은/는')} ${leader}에게서 온 ${where} 응답을 버립니다. 그사이 리더나 Fetch가 바뀌어 더는 이 응답을 기다리지 않습니다.`,
    );
  const fetchOffset = num(req.fetchOffset);
  const diverging = p.divergingEpoch as P | null | undefined;
  if (diverging)
    return say(
      lang,
      `${follower} learns from the leader ${leader} where its copy of ${where} diverges (leader epoch ${num(diverging.epoch)} ends at offset ${num(diverging.endOffset)}); it has nothing to cut and fetches again`,
      `${josa(follower, '이/가')} 리더 ${leader}에게서 ${where} 사본이 어디서 갈라지는지 알게 됩니다(리더 epoch ${num(diverging.epoch)}는 offset ${num(diverging.endOffset)}에서 끝남). 잘라낼 것이 없어 다시 Fetch합니다.`,
    );
  const got = copied(Array.isArray(p.batches) ? (p.batches as P[]) : []);
  // its next Fetch starts at its log end offset
  const leo = next.payload.fetchOffset !== undefined ? num(next.payload.fetchOffset) : got ? got.last + 1 : fetchOffset;
  const leaderHw = num(p.highWatermark);
  const hw = Math.min(leaderHw, leo);
  const hwEn =
    hw === leaderHw
      ? `it learns the leader's high watermark, ${leaderHw}, and takes it as its own`
      : `it learns the leader's high watermark, ${leaderHw}, and takes it up to its own log end offset: ${hw}`;
  const hwKo =
    hw === leaderHw
      ? `리더의 HW(하이 워터마크) ${josa(String(leaderHw), '을/를')} 받아 자기 HW로 삼습니다`
      : `리더의 HW(하이 워터마크) ${josa(String(leaderHw), '을/를')} 받지만 자기 LEO까지만 따라가 HW는 ${josa(String(hw), '이/가')} 됩니다`;
  if (got)
    return say(
      lang,
      `${follower} copied ${count(got.records, 'record')} of ${where} from the leader ${leader} (offset ${range(got.first, got.last)}): its log end offset is now ${leo}; ${hwEn}; it fetches again from offset ${leo}`,
      `${josa(follower, '이/가')} 리더 ${leader}에게서 ${where}의 레코드 ${got.records}개(offset ${range(got.first, got.last)})를 복제했습니다. 이제 LEO(로그 끝 offset)는 ${leo}입니다. ${hwKo}. offset ${leo}부터 다시 Fetch합니다.`,
    );
  return say(
    lang,
    `${follower} got nothing new of ${where} from the leader ${leader}: its log end offset stays ${leo}; ${hwEn}; it fetches again`,
    `${josa(follower, '은/는')} 리더 ${leader}에게서 ${where}의 새 레코드를 받지 못했습니다. LEO(로그 끝 offset)는 ${leo} 그대로입니다. ${hwKo}. 다시 Fetch합니다.`,
  );
}
