/**
 * A consumer's Fetch and its answer, said partition by partition: one Fetch names every partition
 * the consumer fetches from that broker (AbstractFetch.prepareFetchRequests), and its answer carries
 * each one's data or error.
 */

import { topicPartitionKey } from '../protocol/topicPartition';
import type { NarrationContext } from './context';
import { explainError } from './errors';
import { josa, list, say } from './language';

type P = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));
const partitionsOf = (p: P): P[] => (Array.isArray(p.partitions) ? (p.partitions as P[]) : []);
const tp = (x: P): string => topicPartitionKey(str(x.topic), num(x.partition));

/** The broker that got a consumer's Fetch: it answers it now (`answers`), or holds it. */
export function consumerFetchClause(ctx: NarrationContext, to: string, from: string, answers: boolean): string {
  const { lang } = ctx;
  const p: P = (ctx.envelope?.payload as P) ?? {};
  const parts = partitionsOf(p);
  const iso = str(p.isolationLevel);
  if (answers) {
    if (parts.length === 1) {
      const one = parts[0] as P;
      return say(
        lang,
        `${to} answers the Fetch from ${from} for ${tp(one)} from offset ${num(one.fetchOffset)} (${iso})`,
        `${josa(to, '이/가')} ${from}의 ${tp(one)} Fetch(offset ${num(one.fetchOffset)}부터, ${iso})에 응답합니다.`,
      );
    }
    return say(
      lang,
      `${to} answers the Fetch from ${from} for ${list(
        lang,
        parts.map((x) => `${tp(x)} from offset ${num(x.fetchOffset)}`),
      )} (${iso}), every partition in one answer`,
      `${josa(to, '이/가')} ${from}의 Fetch(${list(
        lang,
        parts.map((x) => `${josa(tp(x), '은/는')} offset ${num(x.fetchOffset)}부터`),
      )}, ${iso})에 파티션 모두를 한 응답으로 답합니다.`,
    );
  }
  const en = list(
    lang,
    parts.map((x) => `offset ${num(x.fetchOffset)} of ${tp(x)}`),
  );
  const ko = list(
    lang,
    parts.map((x) => `${tp(x)}의 offset ${num(x.fetchOffset)}`),
  );
  return say(
    lang,
    `${to} has nothing at or past ${en} for ${from} (${iso}), so it holds the Fetch up to ${num(p.maxWaitMs)} ms (fetch.max.wait.ms)`,
    `${to}에는 ${from}에게 줄 ${ko} 이후 데이터가 없어(${iso}) Fetch를 최대 ${num(p.maxWaitMs)} ms(fetch.max.wait.ms) 동안 붙잡아 둡니다.`,
  );
}

function errorOf(ctx: NarrationContext, x: P): { en: string; ko: string } {
  const e = str(x.error);
  const why = explainError(e, ctx.lang);
  return { en: `${tp(x)} with ${e}${why ? `: ${why}` : ''}`, ko: `${tp(x)}: ${e}${why ? `(${why})` : ''}` };
}

/** The consumer that got the answer to its Fetch: each partition's error, records, or nothing new. */
export function consumerFetchResponseClause(ctx: NarrationContext, to: string): string {
  const { lang } = ctx;
  const parts = partitionsOf((ctx.envelope?.payload as P) ?? {});
  const all = list(lang, parts.map(tp));
  const errors = parts.filter((x) => str(x.error) !== 'NONE');
  const withData = parts.filter((x) => str(x.error) === 'NONE' && Array.isArray(x.batches) && x.batches.length > 0);
  const empty = parts.filter((x) => str(x.error) === 'NONE' && !(Array.isArray(x.batches) && x.batches.length > 0));
  if (parts.length === 1 && errors.length === 1) {
    const e = str((errors[0] as P).error);
    const why = explainError(e, lang);
    return say(
      lang,
      `the Fetch of ${all} by ${to} was answered with ${e}${why ? `: ${why}` : ''}`,
      `${to}의 ${all} Fetch 응답: ${e}${why ? `(${why})` : ''}.`,
    );
  }
  const heldBack = empty.some((x) => num(x.lastStableOffset) < num(x.highWatermark))
    ? say(
        lang,
        ' — the LSO is below the high watermark: an open transaction holds read_committed readers back',
        ' LSO가 HW(하이 워터마크)보다 낮습니다. 열린 트랜잭션이 read_committed 컨슈머를 붙잡고 있습니다.',
      )
    : '';
  if (parts.length === 1 && empty.length === 1) {
    const x = parts[0] as P;
    const hw = num(x.highWatermark);
    const lso = num(x.lastStableOffset);
    const held =
      lso < hw
        ? say(
            lang,
            ` — the LSO (${lso}) is below the high watermark (${hw}): an open transaction holds read_committed readers back`,
            ` LSO(${lso})가 HW(하이 워터마크, ${hw})보다 낮습니다. 열린 트랜잭션이 read_committed 컨슈머를 붙잡고 있습니다.`,
          )
        : '';
    return say(
      lang,
      `${to} got nothing new from its Fetch of ${all} (high watermark ${hw}, LSO ${lso})${held}`,
      `${to}의 ${all} Fetch에 새 데이터가 없었습니다(HW ${hw}, LSO ${lso}).${held}`,
    );
  }
  const en: string[] = [];
  const ko: string[] = [];
  for (const x of errors) {
    const e = errorOf(ctx, x);
    en.push(e.en);
    ko.push(e.ko);
  }
  if (withData.length > 0) {
    en.push(`records of ${list('en', withData.map(tp))}, buffered for poll()`);
    ko.push(`${list('ko', withData.map(tp))}의 레코드는 poll()을 위해 버퍼에 둡니다`);
  }
  if (empty.length > 0) {
    en.push(
      `nothing new of ${list(
        'en',
        empty.map((x) => `${tp(x)} (high watermark ${num(x.highWatermark)}, LSO ${num(x.lastStableOffset)})`),
      )}`,
    );
    ko.push(
      `${list(
        'ko',
        empty.map((x) => `${tp(x)}(HW ${num(x.highWatermark)}, LSO ${num(x.lastStableOffset)})`),
      )}에는 새 데이터가 없습니다`,
    );
  }
  return say(
    lang,
    `${to} got the answer to its Fetch of ${all}: ${en.join('; ')}${heldBack}`,
    `${josa(to, '이/가')} ${all} Fetch의 응답을 받았습니다. ${ko.join('. ')}.${heldBack}`,
  );
}
