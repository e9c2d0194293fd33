/**
 * The verdict's sentences in the reader's language. English is the engine's own sentence, as
 * computeVerdict wrote it. Korean is rebuilt from the same structured data (the finding, its event
 * ids and the per-event counts), layer by layer, so the two always state the same numbers; a layer
 * this file does not know yet falls back to the English sentence.
 */
import { josa, type Language } from '../narration/language';
import type { EventVerdict, LayerFinding, Verdict } from './verdict';

function ids(list: readonly string[]): string {
  const shown = list.slice(0, 3).join(', ');
  return list.length > 3 ? `${shown} 외 ${list.length - 3}개` : shown;
}

function times(n: number): string {
  return n === 1 ? '한 번' : n === 2 ? '두 번' : n === 3 ? '세 번' : `${n}번`;
}

function pick(verdict: Verdict, eventIds: readonly string[]): EventVerdict[] {
  const set = new Set(eventIds);
  return verdict.events.filter((e) => set.has(e.eventId));
}

function logKo(f: LayerFinding, v: Verdict): string {
  const appended = v.events.filter((e) => e.appended > 0);
  if (f.status === 'not-applicable') return 'Kafka 로그: 기록된 것이 없습니다.';
  if (f.status === 'once') return `Kafka 로그: 이벤트 ${appended.length}개가 각각 한 번씩 기록됐습니다.`;
  const concerned = pick(v, f.eventIds);
  const retried = concerned.filter((e) => e.retryDuplicates > 0).map((e) => e.eventId);
  const resent = concerned.filter((e) => e.sends > 1);
  const parts: string[] = [];
  if (retried.length)
    parts.push(
      `${josa(ids(retried), '이/가')} 프로듀서 재시도로 다시 기록됐습니다(같은 send()가 두 번 기록됨: 아무것도 중복을 걸러 내지 않았습니다)`,
    );
  if (resent.length) {
    const calls = resent.length === 1 ? `서로 다른 send() 호출 ${(resent[0] as EventVerdict).sends}번` : '서로 다른 send() 호출';
    parts.push(
      `${josa(ids(resent.map((e) => e.eventId)), '이/가')} ${josa(calls, '으로/로')} 기록됐습니다. event_id만 알려 주는 비즈니스 중복입니다`,
    );
  }
  return `Kafka 로그: ${parts.join('; ')}.`;
}

function deliveryKo(f: LayerFinding, v: Verdict, isolation: string): string {
  const c = f.subject ?? '';
  const label = `${c} (${isolation})`;
  const got = v.events.filter((e) => (e.deliveries[c] ?? 0) > 0);
  const missing = v.events.filter((e) => e.appended > 0 && (e.deliveries[c] ?? 0) === 0).map((e) => e.eventId);
  let s: string;
  if (f.status === 'more-than-once') {
    const n = Math.max(...pick(v, f.eventIds).map((e) => e.deliveries[c] ?? 0));
    s = `${label}로의 전달: ${josa(ids(f.eventIds), '이/가')} ${times(n)} 전달됐습니다.`;
  } else if (got.length) s = `${label}로의 전달: 각 이벤트가 한 번씩 전달됐습니다.`;
  else s = `${label}로의 전달: 받은 것이 없습니다.`;
  if (missing.length && got.length) s = `${s.slice(0, -1)} ${josa(ids(missing), '은/는')} 전달되지 않았습니다.`;
  return s;
}

function processingKo(f: LayerFinding, v: Verdict): string {
  const app = f.subject ?? '';
  if (f.status === 'more-than-once') {
    const n = Math.max(...pick(v, f.eventIds).map((e) => e.processed[app] ?? 0));
    return `${app}의 처리: ${josa(ids(f.eventIds), '이/가')} ${times(n)} 처리됐습니다.`;
  }
  const done = v.events.filter((e) => (e.processed[app] ?? 0) > 0 && (e.appended > 0 || e.sends > 0));
  return `${app}의 처리: 이벤트 ${done.length}개가 각각 한 번씩 처리됐습니다.`;
}

function outputKo(f: LayerFinding, v: Verdict): string {
  const concerned = pick(v, f.eventIds);
  const twice = concerned.filter((e) => (e.committedOutput ?? 0) > 1);
  const missing = concerned.filter((e) => (e.committedOutput ?? 0) === 0);
  const aborted = v.events.reduce((n, e) => n + ((e.outputAll ?? 0) - (e.committedOutput ?? 0)), 0);
  let s = twice.length
    ? `커밋된 출력: ${josa(ids(twice.map((e) => e.eventId)), '이/가')} ${times(Math.max(...twice.map((e) => e.committedOutput ?? 0)))} 있습니다. 모든 컨슈머가 그 사본을 봅니다.`
    : missing.length
      ? `커밋된 출력: ${josa(ids(missing.map((e) => e.eventId)), '이/가')} 없습니다.`
      : '커밋된 출력: 각 입력이 정확히 한 번 있습니다.';
  if (aborted > 0) s = `${s.slice(0, -1)} (로그에 취소되거나 열린 사본 ${aborted}개가 있지만 read_committed에는 보이지 않습니다).`;
  return s;
}

function sinkKo(f: LayerFinding, v: Verdict): string {
  const sink = f.subject ?? '';
  const any = v.events.filter((e) => (e.sideEffects[sink]?.applied ?? 0) > 0);
  const skipped = v.events.reduce((n, e) => n + (e.sideEffects[sink]?.skipped ?? 0), 0);
  let s =
    f.status === 'more-than-once'
      ? `${sink}: ${ids(f.eventIds)}에 대해 ${times(Math.max(...pick(v, f.eventIds).map((e) => e.sideEffects[sink]?.applied ?? 0)))} 반영됐습니다.`
      : `${sink}: 이벤트 ${any.length}개가 각각 한 번씩 반영됐습니다.`;
  if (skipped) s = `${s.slice(0, -1)} 반복된 시도 ${skipped}번은 아무것도 바꾸지 않았습니다.`;
  return s;
}

function lossKo(f: LayerFinding, v: Verdict): string {
  if (f.status !== 'lost' || f.eventIds.length === 0) return '유실: 없습니다.';
  const concerned = pick(v, f.eventIds);
  const neverLogged = concerned.filter((e) => e.appended === 0).map((e) => e.eventId);
  const neverProcessed = concerned.filter((e) => e.appended > 0).map((e) => e.eventId);
  const parts: string[] = [];
  if (neverLogged.length) parts.push(`${josa(ids(neverLogged), '은/는')} 로그에 도달하지 못했습니다`);
  if (neverProcessed.length) parts.push(`${josa(ids(neverProcessed), '은/는')} 처리되지 않았습니다`);
  return `유실: ${parts.join('; ')}.`;
}

export interface VerdictTextOptions {
  /** isolation.level per consumer id (the delivery layer names it). */
  readonly isolation?: Readonly<Record<string, string>>;
}

/** A layer finding's sentence in `language` (English: the engine's sentence itself). */
export function findingSentence(f: LayerFinding, verdict: Verdict, language: Language, options: VerdictTextOptions = {}): string {
  if (language === 'en') return f.sentence;
  switch (f.layer) {
    case 'log':
      return logKo(f, verdict);
    case 'delivery':
      return deliveryKo(f, verdict, options.isolation?.[f.subject ?? ''] ?? f.sentence.match(/\(([a-z_]+)\)/)?.[1] ?? '');
    case 'processing':
      return processingKo(f, verdict);
    case 'output':
      return outputKo(f, verdict);
    case 'sink':
      return sinkKo(f, verdict);
    case 'loss':
      return lossKo(f, verdict);
    default:
      return f.sentence;
  }
}

/** Names of the layers and statuses, for tables. */
export const LAYER_NAMES: Readonly<Record<string, readonly [en: string, ko: string]>> = {
  log: ['Kafka log', 'Kafka 로그'],
  delivery: ['Delivery', '전달'],
  processing: ['Processing', '처리'],
  output: ['Committed output', '커밋된 출력'],
  sink: ['Outside Kafka', 'Kafka 밖'],
  loss: ['Losses', '유실'],
};

export const STATUS_NAMES: Readonly<Record<LayerFinding['status'], readonly [en: string, ko: string]>> = {
  once: ['once', '한 번'],
  'more-than-once': ['more than once', '두 번 이상'],
  lost: ['lost', '유실'],
  'not-applicable': ['not applicable', '해당 없음'],
};
