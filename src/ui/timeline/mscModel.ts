/**
 * The message-sequence view's data: one lane per process, every envelope with its lanes, and what
 * each envelope looked like at a given step (sent yet? delivered, dropped, lost or still in flight?).
 * Positions are in "axis units": virtual milliseconds, or steps (an envelope sent during step i sits
 * at i + 1, the point after that step, where the step counter stands once it has run).
 *
 * Pure: no DOM, no d3.
 */
import type { ProcessKind } from '../../sim';
import { type EnvelopeRow, envelopeRows, stopsProcess, type Trace } from '../../sim/views';
import { perTrace } from '../perTrace';

export type AxisMode = 'time' | 'step';
export type EnvelopeState = 'in-flight' | 'delivered' | 'dropped' | 'lost';

export interface MscLane {
  readonly id: string;
  readonly kind: ProcessKind;
}

/**
 * An envelope as the diagram lists it: every field but its payload. A trace rebuilds a payload by
 * replaying the step that sent it, and a record with a payload read on demand is ~20× slower to
 * build than a plain object — 33 ms of one task for the 3,436 envelopes of
 * `late-duplicate-after-expiry` in Chromium — so the tooltip reads the one it shows through
 * `EnvelopePayloads` (the page's from its trace, `tracePayloadsOf`; the embed's from its worker).
 */
export type MscEnvelope = EnvelopeRow;

export interface MscModel {
  readonly lanes: readonly MscLane[];
  readonly envelopes: readonly MscEnvelope[];
  /** Lane index of sender and receiver, per envelope. */
  readonly fromLane: Int32Array;
  readonly toLane: Int32Array;
  /** sentStep per envelope, non-decreasing (envelopes are numbered as they are sent). */
  readonly sentSteps: Float64Array;
  /** For an envelope lost with its receiver (a crash while it waited), the step that lost it. */
  readonly lostStep: ReadonlyMap<number, number>;
  readonly endTime: number;
  readonly endStep: number;
  /** Longest span of any envelope in each axis mode, for hit-test windows. */
  readonly maxSpan: { readonly time: number; readonly step: number };
}

const LANE_ORDER: Record<ProcessKind, number> = {
  producer: 0,
  streams: 1,
  'txn-coordinator': 2,
  broker: 3,
  controller: 3,
  'group-coordinator': 4,
  consumer: 5,
  sink: 6,
};

export function buildMscModel(trace: Trace): MscModel {
  const lanes = [...trace.built.processes]
    .map((p, i) => ({ p, i }))
    .sort((a, b) => LANE_ORDER[a.p.kind] - LANE_ORDER[b.p.kind] || a.i - b.i)
    .map(({ p }) => ({ id: p.id, kind: p.kind }));
  const laneOfActor = new Map<string, number>();
  trace.built.processes.forEach((p) => {
    const lane = lanes.findIndex((l) => l.id === p.id);
    laneOfActor.set(p.id, lane);
    for (const a of p.actors) laneOfActor.set(a, lane);
  });
  const laneOf = (actor: string): number => laneOfActor.get(actor) ?? laneOfActor.get(actor.split('.')[0] ?? actor) ?? -1;
  const envelopes = [...envelopeRows(trace)].filter((e) => laneOf(e.from) >= 0 && laneOf(e.to) >= 0);
  const n = envelopes.length;
  const fromLane = new Int32Array(n);
  const toLane = new Int32Array(n);
  const sentSteps = new Float64Array(n);
  // crashes per process, to date envelopes that died waiting at a paused process that then crashed
  const crashes = new Map<string, number[]>();
  for (const s of trace.steps) if (stopsProcess(s, false)) crashes.set(s.actor, [...(crashes.get(s.actor) ?? []), s.i]);
  const lostStep = new Map<number, number>();
  let maxTime = 0;
  let maxStep = 0;
  envelopes.forEach((e, i) => {
    fromLane[i] = laneOf(e.from);
    toLane[i] = laneOf(e.to);
    sentSteps[i] = e.sentStep;
    if (e.fate === 'lost' && e.deliveredStep === null) {
      const proc = lanes[toLane[i] as number]?.id ?? '';
      const at = (crashes.get(proc) ?? []).find((c) => c > e.sentStep);
      if (at !== undefined) lostStep.set(e.id, at);
    }
    const endT = e.deliverAt ?? e.sentAt;
    const endS = e.deliveredStep ?? lostStep.get(e.id) ?? e.sentStep;
    maxTime = Math.max(maxTime, endT - e.sentAt);
    maxStep = Math.max(maxStep, endS - e.sentStep);
  });
  return {
    lanes,
    envelopes,
    fromLane,
    toLane,
    sentSteps,
    lostStep,
    endTime: trace.endTime,
    endStep: trace.steps.length,
    maxSpan: { time: maxTime, step: maxStep },
  };
}

/** buildMscModel, once per trace (the page's timeline; its landing prepares it). */
export const mscModelOf = perTrace(buildMscModel);

/** What an envelope was after `step` steps. Only meaningful for envelopes sent before then. */
export function envelopeStateAt(model: MscModel, e: MscEnvelope, step: number): EnvelopeState {
  if (e.fate === 'dropped') return 'dropped';
  if (e.deliveredStep !== null && e.deliveredStep < step) return e.fate === 'lost' ? 'lost' : 'delivered';
  const lost = model.lostStep.get(e.id);
  if (lost !== undefined && lost < step) return 'lost';
  return 'in-flight';
}

/** Number of envelopes sent in the first `step` steps: they are the prefix [0, count). */
export function sentBefore(model: MscModel, step: number): number {
  const s = model.sentSteps;
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((s[mid] as number) < step) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Indices of the envelopes the view shows at `step`, in send order. */
export function visibleEnvelopes(model: MscModel, step: number, showBackground: boolean): Int32Array {
  const n = sentBefore(model, step);
  const out = new Int32Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) if (showBackground || !(model.envelopes.at(i) as MscEnvelope).background) out[k++] = i;
  return out.slice(0, k);
}

export interface EnvelopeSpan {
  readonly state: EnvelopeState;
  /** Where it leaves the sender, in axis units. */
  readonly start: number;
  /** Where the drawn arrow ends, in axis units (null: dropped, it has no end). */
  readonly end: number | null;
  /** How far along its way the arrow got (1 once delivered or lost; less while in flight). */
  readonly progress: number;
}

/** Where an envelope's arrow goes at `step` (virtual time `now`), in the given axis. */
export function envelopeSpan(model: MscModel, e: MscEnvelope, mode: AxisMode, step: number, now: number): EnvelopeSpan {
  const state = envelopeStateAt(model, e, step);
  const start = mode === 'time' ? e.sentAt : e.sentStep + 1;
  if (state === 'dropped') return { state, start, end: null, progress: 0 };
  if (state === 'in-flight') {
    const total = e.deliverAt !== null ? e.deliverAt - e.sentAt : 0;
    const progress = total > 0 ? Math.max(0, Math.min(1, (now - e.sentAt) / total)) : 1;
    return { state, start, end: mode === 'time' ? Math.max(start, now) : Math.max(start, step), progress };
  }
  const endStep = e.deliveredStep ?? model.lostStep.get(e.id) ?? e.sentStep;
  const end = mode === 'time' ? (e.deliverAt ?? now) : endStep + 1;
  return { state, start, end, progress: 1 };
}

/** The text alternative: counts per RPC and what went wrong, for the envelopes shown. */
const SUMMARY_WORDS = {
  en: {
    sent: (n: number, step: number) => `${n} envelope${n === 1 ? '' : 's'} sent by step ${step}`,
    inFlight: (n: number) => `${n} in flight`,
    hidden: (n: number) => `${n} background message${n === 1 ? '' : 's'} (heartbeats, idle fetches) hidden`,
    faults: 'faults',
    more: (n: number) => `and ${n} more`,
    state: { 'in-flight': 'in flight', delivered: 'delivered', dropped: 'dropped', lost: 'lost' } as Record<string, string>,
  },
  ko: {
    sent: (n: number, step: number) => `단계 ${step}까지 보낸 메시지 ${n}개`,
    inFlight: (n: number) => `전송 중 ${n}개`,
    hidden: (n: number) => `백그라운드 메시지(하트비트, 빈 fetch) ${n}개 숨김`,
    faults: '장애',
    more: (n: number) => `외 ${n}개`,
    state: { 'in-flight': '전송 중', delivered: '도착', dropped: '버려짐', lost: '유실' } as Record<string, string>,
  },
} as const;

/** The text alternative of the message view: what was sent, what is in flight, what went wrong. */
export function mscSummary(
  model: MscModel,
  shown: Int32Array,
  step: number,
  hiddenBackground: number,
  language: 'en' | 'ko' = 'en',
  translateFault: (label: string) => string = (label) => label,
): string {
  const w = SUMMARY_WORDS[language];
  const byRpc = new Map<string, number>();
  const faults: string[] = [];
  let inFlight = 0;
  for (const i of shown) {
    const e = model.envelopes.at(i) as MscEnvelope;
    byRpc.set(e.rpc, (byRpc.get(e.rpc) ?? 0) + 1);
    const state = envelopeStateAt(model, e, step);
    if (state === 'in-flight') inFlight++;
    if (state === 'dropped' || state === 'lost' || e.fault)
      faults.push(`${e.rpc} #${e.id} ${e.from} → ${e.to} ${w.state[state] ?? state}${e.fault ? ` (${translateFault(e.fault)})` : ''}`);
  }
  const counts = [...byRpc.entries()].map(([rpc, n]) => `${rpc} ×${n}`).join(', ');
  const parts = [`${w.sent(shown.length, step)}${counts ? `: ${counts}` : ''}`, w.inFlight(inFlight)];
  if (hiddenBackground > 0) parts.push(w.hidden(hiddenBackground));
  if (faults.length)
    parts.push(`${w.faults}: ${faults.slice(0, 20).join('; ')}${faults.length > 20 ? `; ${w.more(faults.length - 20)}` : ''}`);
  return `${parts.join('. ')}.`;
}
