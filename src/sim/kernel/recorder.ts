/**
 * The recorder: a run's steps and envelopes in columns, not objects.
 *
 * A step is a row of typed arrays — time, kind, actor, from, label, state before and after (ids in
 * a name table), its envelope, where its sent envelopes end (a step's envelopes are the ids the
 * kernel allocated while it ran, so one number says which) and where its extras end in a shared
 * byte store: its facts, its detail and the faults applied, encoded by valueCodec.ts. An envelope is
 * a row too; its payload is not kept (the trace rebuilds it by replaying from a checkpoint). A
 * TraceStep or EnvelopeRecord object exists only while someone reads it.
 */
import type { Checkpoint } from './checkpoint';
import type { FactBase } from './effects';
import { EndColumn } from './endColumn';
import type { ActorId, Envelope, EnvelopeFate, EnvelopeRecord, RpcName } from './envelope';
import type { NameTable } from './nameTable';
import { PackedCheckpoint, packCheckpoint } from './packedCheckpoint';
import { StateSharing } from './stateCodec';
import type { StepKind, TraceStep } from './types';
import { ByteStore, ValueReader, ValueTables, writeValue } from './valueCodec';

export const STEP_KINDS: readonly StepKind[] = ['deliver', 'timer', 'call', 'fault', 'lost', 'disconnected', 'boot'];
export const KIND_CODE: Readonly<Record<StepKind, number>> = Object.fromEntries(STEP_KINDS.map((k, i) => [k, i])) as Record<
  StepKind,
  number
>;
const FATES: readonly EnvelopeFate[] = ['in-flight', 'delivered', 'dropped', 'lost'];
const FATE_CODE: Readonly<Record<EnvelopeFate, number>> = { 'in-flight': 0, delivered: 1, dropped: 2, lost: 3 };

/** A run packs its checkpoints from this step on (Recorder.packFromStep). */
export const PACK_FROM_STEP = 16384;

const HAS_FACTS = 1;
const HAS_DETAIL = 2;
const HAS_FAULTS = 4;

/** An envelope as the trace keeps it: every field of EnvelopeRecord but its payload. */
export type EnvelopeRow = Omit<EnvelopeRecord, 'payload'>;

/** Typed arrays of one length, grown together (doubling) so that writing a row is a few stores. */
type IdArray = Uint8Array | Uint16Array | Uint32Array;

function grown<A extends Float64Array | Uint8Array | Uint16Array | Uint32Array | Int32Array>(a: A, capacity: number): A {
  const next = new (a.constructor as { new (n: number): A })(capacity);
  next.set(a);
  return next;
}

/** The largest id an id column of each width holds (`from` keeps id + 1). */
const ID_LIMIT = [0xfe, 0xfffe, Number.POSITIVE_INFINITY] as const;

/** An id column one width wider (8 → 16 → 32 bits), same length and values. */
function widened(a: IdArray): IdArray {
  return a instanceof Uint8Array ? Uint16Array.from(a) : Uint32Array.from(a);
}

export class Recorder {
  readonly tables: ValueTables;
  extras: ByteStore;
  /** Slots of the value tables for a step's facts, detail and fault lines. */
  private readonly factSlot: number;
  private readonly detailSlot: number;
  private readonly faultSlot: number;

  // steps: `stepCount` rows
  stepCount = 0;
  /** Virtual time: 32-bit while every time is a whole number of ms below 2^32 (the usual case), else 64-bit floats. */
  t: Uint32Array | Float64Array = new Uint32Array(1024);
  kind = new Uint8Array(1024);
  /** Name ids (8 bits, then 16 and 32 as the name table outgrows them). */
  actor: IdArray = new Uint8Array(1024);
  /** Name id + 1; 0 for none. */
  from: IdArray = new Uint8Array(1024);
  label: IdArray = new Uint8Array(1024);
  before: IdArray = new Uint8Array(1024);
  after: IdArray = new Uint8Array(1024);
  /** -1 for none. */
  envelope = new Int32Array(1024);
  /** The envelope counter after the step: its envelopes are [sentEnd of the step before, this). */
  sentEnd = new EndColumn();
  extraEnd = new EndColumn();
  /** Width of the step id columns: 0, 1, 2 for 8, 16, 32 bits. */
  private idWidth = 0;

  // envelopes, by id: `envelopeCount` rows
  envelopeCount = 0;
  eRpc: IdArray = new Uint8Array(256);
  eFrom: IdArray = new Uint8Array(256);
  eTo: IdArray = new Uint8Array(256);
  eConnection: IdArray = new Uint8Array(256);
  eFromIncarnation = new Uint32Array(256);
  /** -1 for null. */
  eToIncarnation = new Int32Array(256);
  eInReplyTo = new Int32Array(256);
  eSentStep = new Uint32Array(256);
  /** bit 0: background; bits 1–2: fate. */
  eFlags = new Uint8Array(256);
  eGeneration = new Uint32Array(256);
  /** NaN for null. */
  eDeliverAt = new Float64Array(256);
  /** -1 for null. */
  eDeliveredStep = new Int32Array(256);
  /** NaN for null. */
  eTimeoutMs = new Float64Array(256);
  /** The fault applied to an envelope, in words (rare). */
  eFault = new Map<number, string>();
  /** Why an envelope was lost where it arrived (its receiver down …), when no fault was applied as it was sent. */
  eArrivalFault = new Map<number, string>();
  /** The step at which an envelope held by a paused process was lost with it (the process crashed). */
  eHeldLost = new Map<number, number>();
  private envelopeIdWidth = 0;

  checkpoints: Checkpoint[] = [];
  /** The checkpoints' packed fields (packedCheckpoint.ts), with tables of their own. */
  checkpointBytes = new ByteStore();
  /** What the checkpoints packed into `checkpointBytes` have written (each object once per store). */
  private readonly checkpointSharing = new StateSharing();
  readonly checkpointTables: ValueTables;

  constructor(
    readonly names: NameTable,
    from?: Recorder,
  ) {
    if (from) {
      // a fork: the name and value tables are append-only, so they are shared
      this.tables = from.tables;
      this.factSlot = from.factSlot;
      this.detailSlot = from.detailSlot;
      this.faultSlot = from.faultSlot;
      this.checkpointTables = from.checkpointTables;
    } else {
      this.checkpointTables = new ValueTables();
      this.tables = new ValueTables();
      this.factSlot = this.tables.newSlot();
      this.detailSlot = this.tables.newSlot();
      this.faultSlot = this.tables.newSlot();
    }
    this.extras = new ByteStore();
  }

  /**
   * A recorder holding the first `steps` steps and `envelopes` envelopes of this one, for a fork
   * that shares them. Envelope rows are copied whole: a fork's run may still deliver or lose the
   * envelopes in flight at the fork.
   */
  prefix(steps: number, envelopes: number, checkpoints: readonly Checkpoint[]): Recorder {
    const r = new Recorder(this.names, this);
    const cap = Math.max(1024, steps * 2);
    const extraLength = steps === 0 ? 0 : this.extraEnd.get(steps - 1);
    r.extras = this.extras.prefix(extraLength);
    r.stepCount = steps;
    r.t = grown(this.t.subarray(0, steps), cap);
    r.kind = grown(this.kind.subarray(0, steps), cap);
    r.actor = grown(this.actor.subarray(0, steps), cap);
    r.from = grown(this.from.subarray(0, steps), cap);
    r.label = grown(this.label.subarray(0, steps), cap);
    r.before = grown(this.before.subarray(0, steps), cap);
    r.after = grown(this.after.subarray(0, steps), cap);
    r.envelope = grown(this.envelope.subarray(0, steps), cap);
    r.sentEnd = this.sentEnd.resized(steps, cap);
    r.extraEnd = this.extraEnd.resized(steps, cap);
    r.idWidth = this.idWidth;
    const ecap = Math.max(256, envelopes * 2);
    r.envelopeCount = envelopes;
    r.eRpc = grown(this.eRpc.subarray(0, envelopes), ecap);
    r.eFrom = grown(this.eFrom.subarray(0, envelopes), ecap);
    r.eTo = grown(this.eTo.subarray(0, envelopes), ecap);
    r.eConnection = grown(this.eConnection.subarray(0, envelopes), ecap);
    r.eFromIncarnation = grown(this.eFromIncarnation.subarray(0, envelopes), ecap);
    r.eToIncarnation = grown(this.eToIncarnation.subarray(0, envelopes), ecap);
    r.eInReplyTo = grown(this.eInReplyTo.subarray(0, envelopes), ecap);
    r.eSentStep = grown(this.eSentStep.subarray(0, envelopes), ecap);
    r.eFlags = grown(this.eFlags.subarray(0, envelopes), ecap);
    r.eGeneration = grown(this.eGeneration.subarray(0, envelopes), ecap);
    r.eDeliverAt = grown(this.eDeliverAt.subarray(0, envelopes), ecap);
    r.eDeliveredStep = grown(this.eDeliveredStep.subarray(0, envelopes), ecap);
    r.eTimeoutMs = grown(this.eTimeoutMs.subarray(0, envelopes), ecap);
    r.envelopeIdWidth = this.envelopeIdWidth;
    for (const [id, why] of this.eFault) if (id < envelopes) r.eFault.set(id, why);
    // what became of an envelope at or after the fork's first step is the fork's to say again
    for (let id = 0; id < envelopes; id++) {
      const at = r.eDeliveredStep[id] as number;
      const heldLost = this.eHeldLost.get(id);
      if (at >= steps || (heldLost !== undefined && heldLost >= steps)) {
        r.eDeliveredStep[id] = -1;
        r.setFate(id, 'in-flight');
      } else {
        const why = this.eArrivalFault.get(id);
        if (why !== undefined) r.eArrivalFault.set(id, why);
        if (heldLost !== undefined) r.eHeldLost.set(id, heldLost);
      }
    }
    r.checkpoints = checkpoints.slice();
    r.firstEnvelope = this.firstEnvelope;
    return r;
  }

  // ---------------------------------------------------------------- writing

  /**
   * From this step on the run packs its checkpoints (and the ones it kept before): a short run — a
   * preset, a search's schedule with a checkpoint every few steps — keeps them as objects and pays
   * no packing, a long one keeps a few bytes per step instead of the objects.
   */
  packFromStep = PACK_FROM_STEP;
  /** The checkpoints before this index are packed. */
  private packedUpTo = 0;

  /** Keeps `cp`; once the run is long, its queue, connections and snapshots packed into bytes. */
  keepCheckpoint(cp: Checkpoint): void {
    const cps = this.checkpoints;
    cps.push(cp);
    if (cp.step < this.packFromStep) return;
    for (let i = this.packedUpTo; i < cps.length; i++) {
      const c = cps[i] as Checkpoint;
      if (!(c instanceof PackedCheckpoint)) cps[i] = packCheckpoint(c, this.checkpointBytes, this.checkpointTables, this.checkpointSharing);
    }
    this.packedUpTo = cps.length;
  }

  private growSteps(): void {
    const cap = Math.max(1024, this.t.length * 2);
    this.t = grown(this.t, cap);
    this.kind = grown(this.kind, cap);
    this.actor = grown(this.actor, cap);
    this.from = grown(this.from, cap);
    this.label = grown(this.label, cap);
    this.before = grown(this.before, cap);
    this.after = grown(this.after, cap);
    this.envelope = grown(this.envelope, cap);
    this.sentEnd = this.sentEnd.resized(this.stepCount, cap);
    this.extraEnd = this.extraEnd.resized(this.stepCount, cap);
  }

  /** Name ids past what the id columns hold: they become one width wider. */
  private widenIds(): void {
    this.idWidth++;
    this.actor = widened(this.actor);
    this.from = widened(this.from);
    this.label = widened(this.label);
    this.before = widened(this.before);
    this.after = widened(this.after);
  }

  step(
    t: number,
    kind: StepKind,
    actor: number,
    from: number,
    label: number,
    before: number,
    after: number,
    envelope: number | null,
    sentEnd: number,
    detail: Readonly<Record<string, unknown>> | null,
    facts: readonly FactBase[],
    faults: readonly string[],
  ): void {
    const n = this.stepCount;
    if (n === this.t.length) this.growSteps();
    while (this.names.names.length > ID_LIMIT[this.idWidth as 0 | 1 | 2]) this.widenIds();
    // a time that is not a whole number of ms below 2^32 turns the time column into floats for good
    if (t >>> 0 !== t && this.t instanceof Uint32Array) this.t = Float64Array.from(this.t);
    this.t[n] = t;
    this.kind[n] = KIND_CODE[kind];
    this.actor[n] = actor;
    this.from[n] = from + 1;
    this.label[n] = label;
    this.before[n] = before;
    this.after[n] = after;
    this.envelope[n] = envelope ?? -1;
    this.sentEnd.set(n, sentEnd);
    const flags = (facts.length ? HAS_FACTS : 0) | (detail !== null ? HAS_DETAIL : 0) | (faults.length ? HAS_FAULTS : 0);
    if (flags !== 0) {
      const out = this.extras;
      out.byte(flags);
      if (facts.length) {
        out.varint(facts.length);
        for (const f of facts) writeValue(out, this.tables, f, this.factSlot);
      }
      if (detail !== null) writeValue(out, this.tables, detail, this.detailSlot);
      if (faults.length) {
        out.varint(faults.length);
        for (const f of faults) writeValue(out, this.tables, f, this.faultSlot);
      }
    }
    this.extraEnd.set(n, this.extras.length);
    this.stepCount = n + 1;
  }

  private growEnvelopes(): void {
    const cap = Math.max(256, this.eRpc.length * 2);
    this.eRpc = grown(this.eRpc, cap);
    this.eFrom = grown(this.eFrom, cap);
    this.eTo = grown(this.eTo, cap);
    this.eConnection = grown(this.eConnection, cap);
    this.eFromIncarnation = grown(this.eFromIncarnation, cap);
    this.eToIncarnation = grown(this.eToIncarnation, cap);
    this.eInReplyTo = grown(this.eInReplyTo, cap);
    this.eSentStep = grown(this.eSentStep, cap);
    this.eFlags = grown(this.eFlags, cap);
    this.eGeneration = grown(this.eGeneration, cap);
    this.eDeliverAt = grown(this.eDeliverAt, cap);
    this.eDeliveredStep = grown(this.eDeliveredStep, cap);
    this.eTimeoutMs = grown(this.eTimeoutMs, cap);
  }

  envelopeSent(e: Envelope, deliverAt: number | null, fate: EnvelopeFate, fault: string | null, timeoutMs: number | null): void {
    const n = this.envelopeCount;
    if (n === this.eRpc.length) this.growEnvelopes();
    const names = this.names;
    const rpc = names.id(e.rpc);
    const from = names.id(e.from);
    const to = names.id(e.to);
    const connection = names.id(e.connection);
    while (names.names.length > ID_LIMIT[this.envelopeIdWidth as 0 | 1 | 2]) {
      this.envelopeIdWidth++;
      this.eRpc = widened(this.eRpc);
      this.eFrom = widened(this.eFrom);
      this.eTo = widened(this.eTo);
      this.eConnection = widened(this.eConnection);
    }
    this.eRpc[n] = rpc;
    this.eFrom[n] = from;
    this.eTo[n] = to;
    this.eConnection[n] = connection;
    this.eFromIncarnation[n] = e.fromIncarnation;
    this.eToIncarnation[n] = e.toIncarnation ?? -1;
    this.eInReplyTo[n] = e.inReplyTo ?? -1;
    this.eSentStep[n] = e.sentStep;
    this.eFlags[n] = (e.background ? 1 : 0) | (FATE_CODE[fate] << 1);
    this.eGeneration[n] = e.generation;
    this.eDeliverAt[n] = deliverAt ?? Number.NaN;
    // an envelope lost as it was sent was lost at the step that sent it
    this.eDeliveredStep[n] = fate === 'lost' ? e.sentStep : -1;
    this.eTimeoutMs[n] = timeoutMs ?? Number.NaN;
    if (fault !== null) this.eFault.set(e.id, fault);
    this.envelopeCount = n + 1;
  }

  fateOf(id: number): EnvelopeFate {
    return FATES[((this.eFlags[id] as number) >> 1) & 3] as EnvelopeFate;
  }

  setFate(id: number, fate: EnvelopeFate): void {
    this.eFlags[id] = ((this.eFlags[id] as number) & 1) | (FATE_CODE[fate] << 1);
  }

  /** An envelope reached its destination or was lost there, at `step`. */
  arrived(id: number, lost: boolean, step: number, why?: string): void {
    if (id >= this.envelopeCount) return;
    this.setFate(id, lost ? 'lost' : 'delivered');
    this.eDeliveredStep[id] = step;
    if (lost && why && !this.eFault.has(id)) this.eArrivalFault.set(id, why);
  }

  /** An envelope held by a paused process that crashed (at `step`). */
  lostWhileHeld(id: number, step: number): void {
    if (id < this.envelopeCount && this.fateOf(id) === 'in-flight') {
      this.setFate(id, 'lost');
      this.eHeldLost.set(id, step);
    }
  }

  /** Gives back the room the columns kept to grow (a finished trace keeps what it holds, no more). */
  trim(): void {
    const n = this.stepCount;
    const e = this.envelopeCount;
    this.t = this.t.slice(0, n);
    this.kind = this.kind.slice(0, n);
    this.actor = this.actor.slice(0, n);
    this.from = this.from.slice(0, n);
    this.label = this.label.slice(0, n);
    this.before = this.before.slice(0, n);
    this.after = this.after.slice(0, n);
    this.envelope = this.envelope.slice(0, n);
    this.sentEnd = this.sentEnd.resized(n, n);
    this.extraEnd = this.extraEnd.resized(n, n);
    this.eRpc = this.eRpc.slice(0, e);
    this.eFrom = this.eFrom.slice(0, e);
    this.eTo = this.eTo.slice(0, e);
    this.eConnection = this.eConnection.slice(0, e);
    this.eFromIncarnation = this.eFromIncarnation.slice(0, e);
    this.eToIncarnation = this.eToIncarnation.slice(0, e);
    this.eInReplyTo = this.eInReplyTo.slice(0, e);
    this.eSentStep = this.eSentStep.slice(0, e);
    this.eFlags = this.eFlags.slice(0, e);
    this.eGeneration = this.eGeneration.slice(0, e);
    this.eDeliverAt = this.eDeliverAt.slice(0, e);
    this.eDeliveredStep = this.eDeliveredStep.slice(0, e);
    this.eTimeoutMs = this.eTimeoutMs.slice(0, e);
    this.extras = this.extras.prefix(this.extras.length, true);
    // trimmed in place: the packed checkpoints read this store
    this.checkpointBytes.trim();
    // and the last checkpoint's objects are let go (a run that goes on writes its next one whole)
    this.checkpointSharing.forget();
  }

  // ---------------------------------------------------------------- reading

  /** Where the envelopes step `i` sent start and end. */
  sentRange(i: number): [number, number] {
    return [i === 0 ? this.firstEnvelope : this.sentEnd.get(i - 1), this.sentEnd.get(i)];
  }

  /** The envelope counter before the first step (0 for a run from the start). */
  firstEnvelope = 0;

  stepAt(i: number): TraceStep | undefined {
    if (!(i >= 0 && i < this.stepCount)) return undefined;
    const names = this.names;
    const [s0, s1] = this.sentRange(i);
    const sent: number[] = [];
    for (let id = s0; id < s1; id++) sent.push(id);
    let facts: FactBase[] = [];
    let detail: Readonly<Record<string, unknown>> | null = null;
    let faults: string[] = [];
    const start = i === 0 ? 0 : this.extraEnd.get(i - 1);
    if (this.extraEnd.get(i) > start) {
      const r = new ValueReader(this.extras.bytes, this.tables, start);
      const flags = this.extras.bytes[r.pos++] as number;
      if (flags & HAS_FACTS) {
        const n = r.varint();
        facts = new Array(n);
        for (let k = 0; k < n; k++) facts[k] = r.value() as FactBase;
      }
      if (flags & HAS_DETAIL) detail = r.value() as Record<string, unknown>;
      if (flags & HAS_FAULTS) {
        const n = r.varint();
        faults = new Array(n);
        for (let k = 0; k < n; k++) faults[k] = r.value() as string;
      }
    }
    const from = this.from[i] as number;
    const env = this.envelope[i] as number;
    return {
      i,
      t: this.t[i] as number,
      actor: names.name(this.actor[i] as number),
      kind: STEP_KINDS[this.kind[i] as number] as StepKind,
      label: names.name(this.label[i] as number),
      from: from === 0 ? null : names.name(from - 1),
      envelope: env < 0 ? null : env,
      detail,
      before: names.name(this.before[i] as number),
      after: names.name(this.after[i] as number),
      sent,
      facts,
      faults,
    };
  }

  /** Whether step `i` has facts (a byte read, nothing decoded). */
  hasFacts(i: number): boolean {
    const start = i === 0 ? 0 : this.extraEnd.get(i - 1);
    return this.extraEnd.get(i) > start && ((this.extras.bytes[start] as number) & HAS_FACTS) !== 0;
  }

  /** Only the facts of step `i` (narration and views read them without the rest of the step). */
  factsAt(i: number): FactBase[] {
    if (!(i >= 0 && i < this.stepCount)) return [];
    const start = i === 0 ? 0 : this.extraEnd.get(i - 1);
    if (this.extraEnd.get(i) === start) return [];
    const flags = this.extras.bytes[start] as number;
    if (!(flags & HAS_FACTS)) return [];
    const r = new ValueReader(this.extras.bytes, this.tables, start + 1);
    const n = r.varint();
    const out: FactBase[] = new Array(n);
    for (let k = 0; k < n; k++) out[k] = r.value() as FactBase;
    return out;
  }

  actorOf(i: number): ActorId {
    return this.names.name(this.actor[i] as number);
  }

  kindOf(i: number): StepKind {
    return STEP_KINDS[this.kind[i] as number] as StepKind;
  }

  labelOf(i: number): string {
    return this.names.name(this.label[i] as number);
  }

  envelopeRow(id: number): EnvelopeRow | undefined {
    if (!(id >= 0 && id < this.envelopeCount)) return undefined;
    const names = this.names;
    const flags = this.eFlags[id] as number;
    const toInc = this.eToIncarnation[id] as number;
    const reply = this.eInReplyTo[id] as number;
    const deliverAt = this.eDeliverAt[id] as number;
    const delivered = this.eDeliveredStep[id] as number;
    const timeout = this.eTimeoutMs[id] as number;
    const sentStep = this.eSentStep[id] as number;
    return {
      id,
      rpc: names.name(this.eRpc[id] as number) as RpcName,
      from: names.name(this.eFrom[id] as number),
      to: names.name(this.eTo[id] as number),
      fromIncarnation: this.eFromIncarnation[id] as number,
      toIncarnation: toInc < 0 ? null : toInc,
      inReplyTo: reply < 0 ? null : reply,
      // sent during step sentStep, whose time is the time it was sent at
      sentAt: this.t[sentStep] as number,
      sentStep,
      background: (flags & 1) === 1,
      connection: names.name(this.eConnection[id] as number),
      generation: this.eGeneration[id] as number,
      deliverAt: Number.isNaN(deliverAt) ? null : deliverAt,
      deliveredStep: delivered < 0 ? null : delivered,
      fate: FATES[(flags >> 1) & 3] as EnvelopeFate,
      fault: this.eFault.get(id) ?? this.eArrivalFault.get(id) ?? null,
      duplicateOf: null,
      timeoutMs: Number.isNaN(timeout) ? null : timeout,
    };
  }

  /** Bytes the columns and stores hold (their buffers, with the room they have to grow). */
  get retainedBytes(): number {
    // a fault line is about 64 bytes with its map entry
    let n =
      this.extras.retainedBytes +
      this.checkpointBytes.retainedBytes +
      (this.eFault.size + this.eArrivalFault.size + this.eHeldLost.size) * 64;
    for (const c of [
      this.t,
      this.kind,
      this.actor,
      this.from,
      this.label,
      this.before,
      this.after,
      this.envelope,
      this.eRpc,
      this.eFrom,
      this.eTo,
      this.eFromIncarnation,
      this.eToIncarnation,
      this.eInReplyTo,
      this.eSentStep,
      this.eFlags,
      this.eConnection,
      this.eGeneration,
      this.eDeliverAt,
      this.eDeliveredStep,
      this.eTimeoutMs,
    ])
      n += c.byteLength;
    return n;
  }
}
