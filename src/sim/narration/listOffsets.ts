/**
 * A consumer's ListOffsets and its answer, said partition by partition: one request names every
 * partition the consumer looks up on that broker (OffsetFetcher.groupListOffsetRequests), and its
 * answer carries each one's offset or error.
 */

import { topicPartitionKey } from '../protocol/topicPartition';
import { actorConfig, type NarrationContext } from './context';
import { explainError } from './errors';
import { josa, list, say } from './language';
import { poss } from './names';

type P = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));
const partitionsOf = (p: P): P[] => (Array.isArray(p.partitions) ? (p.partitions as P[]) : []);
const tp = (x: P): string => topicPartitionKey(str(x.topic), num(x.partition));

/** The offsets asked for: "the earliest offset of t-0 and t-1", or each partition's when they differ. */
function asked(ctx: NarrationContext, parts: readonly P[]): { en: string; ko: string } {
  const { lang } = ctx;
  const earliest = (x: P): boolean => num(x.timestamp) === -2;
  const first = parts[0];
  if (first && parts.every((x) => earliest(x) === earliest(first))) {
    const where = list(lang, parts.map(tp));
    return earliest(first)
      ? { en: `the earliest offset of ${where}`, ko: `${where}의 가장 이른 offset` }
      : { en: `the latest offset of ${where}`, ko: `${where}의 가장 최근 offset` };
  }
  return {
    en: list(
      lang,
      parts.map((x) => `the ${earliest(x) ? 'earliest' : 'latest'} offset of ${tp(x)}`),
    ),
    ko: list(
      lang,
      parts.map((x) => `${tp(x)}의 ${earliest(x) ? '가장 이른' : '가장 최근'} offset`),
    ),
  };
}

/** The broker that got a consumer's ListOffsets. */
export function listOffsetsClause(ctx: NarrationContext, to: string, from: string, fromId: string): string {
  const { lang } = ctx;
  const p: P = (ctx.envelope?.payload as P) ?? {};
  const parts = partitionsOf(p);
  const what = asked(ctx, parts);
  const one = parts.length <= 1;
  if (!actorConfig(ctx, fromId)?.['group.id'])
    return say(
      lang,
      `${from} asks ${to} for ${what.en} (ListOffsets${one ? '' : ', one request for every partition it looks up on that broker'})`,
      `${josa(from, '이/가')} ${to}에게 ${josa(what.ko, '을/를')} 묻습니다(ListOffsets${one ? '' : ', 그 브로커에서 찾는 파티션 모두를 한 요청으로'}).`,
    );
  const where = list(lang, parts.map(tp));
  const first = parts[0];
  const same = first !== undefined && parts.every((x) => num(x.timestamp) === num(first.timestamp));
  const kind = same ? (num(first.timestamp) === -2 ? { en: 'earliest', ko: '가장 이른' } : { en: 'latest', ko: '가장 최근' }) : null;
  return say(
    lang,
    `${from} has no committed offset for ${where}, so auto.offset.reset asks ${to} for ${kind ? (one ? `the ${kind.en} offset` : `their ${kind.en} offsets`) : what.en}${one ? '' : ' in one ListOffsets'}`,
    `${josa(from, '은/는')} ${where}의 커밋된 offset이 없어 auto.offset.reset에 따라 ${to}에게 ${josa(kind ? `${one ? '' : '각각의 '}${kind.ko} offset` : what.ko, '을/를')} ${one ? '' : '한 ListOffsets로 '}묻습니다.`,
  );
}

/** The consumer that got a ListOffsets answer: each partition's offset, or its error (that partition alone is asked again). */
export function listOffsetsResponseClause(ctx: NarrationContext, to: string): string {
  const { lang } = ctx;
  const p: P = (ctx.envelope?.payload as P) ?? {};
  const parts = partitionsOf(p);
  if (parts.length === 0) return say(lang, `${to} got its ListOffsets answer`, `${josa(to, '이/가')} ListOffsets 응답을 받았습니다.`);
  const failed = parts.filter((x) => str(x.error) !== 'NONE');
  const found = parts.filter((x) => str(x.error) === 'NONE');
  const clauses: string[] = [];
  if (found.length > 0)
    clauses.push(
      say(
        lang,
        `${to} will start ${list(
          lang,
          found.map((x) => `${tp(x)} at offset ${num(x.offset)}`),
        )}`,
        `${josa(to, '은/는')} ${list(
          lang,
          found.map((x) => `${josa(tp(x), '을/를')} offset ${num(x.offset)}부터`),
        )} 읽습니다`,
      ),
    );
  for (const x of failed) {
    const e = str(x.error);
    const why = explainError(e, lang);
    clauses.push(
      say(
        lang,
        `${poss(to, 'ListOffsets')} for ${tp(x)} was answered with ${e}${why ? `: ${why}` : ''}; ${tp(x)} alone is asked again after retry.backoff.ms`,
        `${to}의 ${tp(x)} ListOffsets 응답은 ${e}${why ? `(${why})` : ''}입니다. ${josa(tp(x), '은/는')} retry.backoff.ms 뒤에 따로 다시 묻습니다`,
      ),
    );
  }
  return say(lang, `${clauses.join('. ')}`, `${clauses.join('. ')}.`);
}
