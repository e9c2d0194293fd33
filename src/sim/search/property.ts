/**
 * What the person cares about, read off the layered verdict (src/sim/checks/verdict.ts):
 *
 * - `no-duplicates` [at]: no business duplicate. Without `at`: a second committed (or plain) copy of
 *   an event in any topic, or a second effect in any system outside Kafka. With `at` a topic, reader,
 *   application or sink: any "more than once" finding about it (a reader's or an application's
 *   redelivery counts there).
 * - `nothing-lost` [at]: nothing acknowledged is lost — no loss of an event whose write was
 *   acknowledged (a send that failed or was never made, and a transaction that was aborted or never
 *   ended, are told to their writer, so they are not counted).
 * - `no-loss` [at]: nothing lost at all, also what its writer was told had failed (a send refused,
 *   a transaction aborted or left open).
 * - `processed-once` [at]: every input processed once by each application (or the one named).
 * - `no-stall` [at] [stallMs]: no read_committed reader stalled behind an open transaction for longer
 *   than `stallMs` at the end of the run.
 * - `any`: any of these.
 */
import type { DeliveryFinding, LayerFinding, LossKind, Verdict } from '../checks/verdict';
import { josa } from '../narration/language';

export type PropertyId = 'no-duplicates' | 'nothing-lost' | 'no-loss' | 'processed-once' | 'no-stall' | 'any';
export const PROPERTY_IDS: readonly PropertyId[] = ['no-duplicates', 'nothing-lost', 'no-loss', 'processed-once', 'no-stall', 'any'];

export interface Property {
  readonly id: PropertyId;
  /** A topic, reader, application or sink; every one when absent. */
  readonly at?: string;
  /** no-stall: how long a stall may last (ms). */
  readonly stallMs?: number;
}

export interface Violation {
  readonly property: PropertyId;
  readonly layer: LayerFinding['layer'];
  readonly subject: string | null;
  readonly status: LayerFinding['status'];
  readonly eventIds: readonly string[];
  /** The verdict's own sentence for the finding. */
  readonly sentence: string;
}

/** Losses of an event that was acknowledged to whoever wrote it. */
const ACKNOWLEDGED: ReadonlySet<LossKind> = new Set<LossKind>([
  'acked-then-lost',
  'not-processed',
  'not-applied',
  'not-written',
  'not-published',
  'compacted',
]);

const violation = (property: PropertyId, f: LayerFinding, eventIds: readonly string[] = f.eventIds): Violation => ({
  property,
  layer: f.layer,
  subject: f.subject,
  status: f.status,
  eventIds,
  sentence: f.sentence,
});

function noDuplicates(v: Verdict, at: string | undefined): Violation | null {
  for (const f of v.layers) {
    if (f.status !== 'more-than-once') continue;
    if (at !== undefined ? f.subject === at : f.layer === 'log' || f.layer === 'output' || f.layer === 'sink')
      return violation('no-duplicates', f);
  }
  return null;
}

function lossOf(id: PropertyId, v: Verdict, at: string | undefined, acknowledgedOnly: boolean): Violation | null {
  for (const f of v.layers) {
    if (f.layer !== 'loss') continue;
    const lost = f.losses.filter((l) => (!acknowledgedOnly || ACKNOWLEDGED.has(l.kind)) && (at === undefined || l.subject === at));
    if (!lost.length) continue;
    // name the layer where it was lost, and that layer's own sentence
    const first = lost[0] as (typeof lost)[number];
    const at0 = v.layers.find((g) => g.layer === first.layer && g.subject === first.subject);
    const ids = [...new Set(lost.map((l) => l.eventId))].sort();
    return at0 ? { ...violation(id, at0, ids), status: 'lost' } : violation(id, f, ids);
  }
  return null;
}
const nothingLost = (v: Verdict, at: string | undefined) => lossOf('nothing-lost', v, at, true);

function processedOnce(v: Verdict, at: string | undefined): Violation | null {
  for (const f of v.layers)
    if (f.layer === 'processing' && (at === undefined || f.subject === at) && (f.status === 'more-than-once' || f.status === 'lost'))
      return violation('processed-once', f);
  return null;
}

function noStall(v: Verdict, at: string | undefined, stallMs: number, endTime: number): Violation | null {
  for (const f of v.layers) {
    if (f.layer !== 'delivery' || (at !== undefined && f.subject !== at)) continue;
    const d = f as DeliveryFinding;
    if (d.isolationLevel !== 'read_committed') continue;
    const long = d.stalls.filter((s) => endTime - s.sinceTime > stallMs);
    if (long.length) return violation('no-stall', f, [...new Set(long.flatMap((s) => s.blockedEventIds))].sort());
  }
  return null;
}

/** The first finding of the verdict that breaks the property, or null when it holds. */
export function checkProperty(p: Property, v: Verdict, endTime: number): Violation | null {
  switch (p.id) {
    case 'no-duplicates':
      return noDuplicates(v, p.at);
    case 'nothing-lost':
      return nothingLost(v, p.at);
    case 'no-loss':
      return lossOf('no-loss', v, p.at, false);
    case 'processed-once':
      return processedOnce(v, p.at);
    case 'no-stall':
      return noStall(v, p.at, p.stallMs ?? 0, endTime);
    case 'any':
      return noDuplicates(v, p.at) ?? nothingLost(v, p.at) ?? processedOnce(v, p.at) ?? noStall(v, p.at, p.stallMs ?? 0, endTime);
  }
}

/** The property in words, e.g. "no business duplicate at billing". */
export function describeProperty(p: Property, lang: 'en' | 'ko' = 'en'): string {
  const at = p.at;
  if (lang === 'ko')
    switch (p.id) {
      case 'no-duplicates':
        return at ? `${at}에서 비즈니스 중복 없음` : '어느 토픽·외부 시스템에도 비즈니스 중복 없음';
      case 'nothing-lost':
        return at ? `${at}에서 확인(ack)된 것은 유실되지 않음` : '확인(ack)된 것은 유실되지 않음';
      case 'no-loss':
        return at ? `${at}에서 아무것도 유실되지 않음` : '아무것도 유실되지 않음';
      case 'processed-once':
        return at ? `${josa(at, '이/가')} 모든 입력을 한 번씩 처리` : '모든 애플리케이션이 모든 입력을 한 번씩 처리';
      case 'no-stall':
        // 컨슈머, not 리더: on this page 리더 is a partition's leader
        return `read_committed 컨슈머${at ? ` ${josa(at, '이/가')}` : '가'} ${p.stallMs ?? 0} ms 넘게 멈추지 않음`;
      case 'any':
        return at ? `${at}에 대한 모든 속성` : '모든 속성';
    }
  switch (p.id) {
    case 'no-duplicates':
      return at ? `no business duplicate at ${at}` : 'no business duplicate in any topic or system outside Kafka';
    case 'nothing-lost':
      return at ? `nothing acknowledged is lost at ${at}` : 'nothing acknowledged is lost';
    case 'no-loss':
      return at ? `nothing lost at ${at}, acknowledged or not` : 'nothing lost, acknowledged or not';
    case 'processed-once':
      return at ? `every input processed once by ${at}` : 'every input processed once by every application';
    case 'no-stall':
      return `no read_committed reader${at ? ` (${at})` : ''} stalled longer than ${p.stallMs ?? 0} ms`;
    case 'any':
      return at ? `every property at ${at}` : 'every property';
  }
}
