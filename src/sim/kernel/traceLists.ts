/**
 * Read-only lists over a recorder's columns: `trace.steps` and `trace.envelopes`. They behave like
 * read-only arrays for reading one entry (`at`), iterating, and the usual searches (`filter`,
 * `find`, `some` …), but build each TraceStep or EnvelopeRecord only when it is read. An envelope's
 * payload is read through `payloadOf` (the trace replays the step that sent it).
 */
import type { EnvelopeRecord } from './envelope';
import type { EnvelopeRow, Recorder } from './recorder';
import type { TraceStep } from './types';

/**
 * What readers of a trace's steps and envelopes may rely on: a read-only array (a test's hand-made
 * list) and the recorder's lists both are one.
 */
export interface ListLike<T> extends Iterable<T> {
  readonly length: number;
  at(index: number): T | undefined;
  filter(pred: (x: T, i: number) => unknown): T[];
  map<U>(f: (x: T, i: number) => U): U[];
  find(pred: (x: T, i: number) => unknown): T | undefined;
  findIndex(pred: (x: T, i: number) => unknown): number;
  some(pred: (x: T, i: number) => unknown): boolean;
  every(pred: (x: T, i: number) => unknown): boolean;
  forEach(f: (x: T, i: number) => void): void;
  slice(start?: number, end?: number): T[];
  flatMap<U>(f: (x: T, i: number) => U | readonly U[]): U[];
}

abstract class RowList<T> implements ListLike<T> {
  abstract get length(): number;
  abstract at(index: number): T | undefined;

  protected index(i: number): number {
    const n = Math.trunc(i);
    return n < 0 ? n + this.length : n;
  }

  *[Symbol.iterator](): Iterator<T> {
    const n = this.length;
    for (let i = 0; i < n; i++) yield this.at(i) as T;
  }

  filter(pred: (x: T, i: number) => unknown): T[] {
    const out: T[] = [];
    let i = 0;
    for (const x of this) if (pred(x, i++)) out.push(x);
    return out;
  }

  map<U>(f: (x: T, i: number) => U): U[] {
    const out: U[] = [];
    let i = 0;
    for (const x of this) out.push(f(x, i++));
    return out;
  }

  flatMap<U>(f: (x: T, i: number) => U | readonly U[]): U[] {
    const out: U[] = [];
    let i = 0;
    for (const x of this) {
      const y = f(x, i++);
      if (Array.isArray(y)) for (const z of y) out.push(z as U);
      else out.push(y as U);
    }
    return out;
  }

  find(pred: (x: T, i: number) => unknown): T | undefined {
    let i = 0;
    for (const x of this) if (pred(x, i++)) return x;
    return undefined;
  }

  findIndex(pred: (x: T, i: number) => unknown): number {
    let i = 0;
    for (const x of this) {
      if (pred(x, i)) return i;
      i++;
    }
    return -1;
  }

  findLast(pred: (x: T, i: number) => unknown): T | undefined {
    for (let i = this.length - 1; i >= 0; i--) {
      const x = this.at(i) as T;
      if (pred(x, i)) return x;
    }
    return undefined;
  }

  some(pred: (x: T, i: number) => unknown): boolean {
    return this.findIndex(pred) >= 0;
  }

  every(pred: (x: T, i: number) => unknown): boolean {
    return this.findIndex((x, i) => !pred(x, i)) < 0;
  }

  forEach(f: (x: T, i: number) => void): void {
    let i = 0;
    for (const x of this) f(x, i++);
  }

  reduce<U>(f: (acc: U, x: T, i: number) => U, initial: U): U {
    let acc = initial;
    let i = 0;
    for (const x of this) acc = f(acc, x, i++);
    return acc;
  }

  /** Entries [start, end) as an array (negative indexes count from the end, as Array.slice). */
  slice(start = 0, end = this.length): T[] {
    const n = this.length;
    const a = Math.max(0, Math.min(n, start < 0 ? start + n : start));
    const b = Math.max(0, Math.min(n, end < 0 ? end + n : end));
    const out: T[] = [];
    for (let i = a; i < b; i++) out.push(this.at(i) as T);
    return out;
  }

  toArray(): T[] {
    return this.slice();
  }

  toJSON(): T[] {
    return this.toArray();
  }
}

export class StepList extends RowList<TraceStep> {
  constructor(private readonly rec: Recorder) {
    super();
  }

  get length(): number {
    return this.rec.stepCount;
  }

  at(index: number): TraceStep | undefined {
    return this.rec.stepAt(this.index(index));
  }
}

/** Reads an envelope's payload (replaying the step that sent it); undefined if there is none. */
export type PayloadSource = (id: number) => Readonly<Record<string, unknown>> | undefined;

export class EnvelopeList extends RowList<EnvelopeRecord> {
  constructor(
    private readonly rec: Recorder,
    private readonly payloadOf: PayloadSource,
  ) {
    super();
  }

  get length(): number {
    return this.rec.envelopeCount;
  }

  /** Envelope `id` (ids are dense from 0, so an envelope's id is its index). */
  at(index: number): EnvelopeRecord | undefined {
    const row = this.rec.envelopeRow(this.index(index));
    if (!row) return undefined;
    return withPayload(row, this.payloadOf);
  }

  /**
   * Envelope `id` without its payload: a plain object (what the message diagram lists, thousands at
   * once — a record's lazy payload makes each one far slower to build).
   */
  row(index: number): EnvelopeRow | undefined {
    return this.rec.envelopeRow(this.index(index));
  }

  /** Every envelope with its payload, read in one pass (an export of the whole trace). */
  override toJSON(): EnvelopeRecord[] {
    return this.toArray().map((e) => ({ ...e, payload: e.payload }));
  }
}

/** The record with its payload read on first access (and kept, as a plain property, afterwards). */
function withPayload(row: Omit<EnvelopeRecord, 'payload'>, payloadOf: PayloadSource): EnvelopeRecord {
  const { id, rpc, from, to, fromIncarnation, toIncarnation, ...rest } = row;
  const out = { id, rpc, from, to, fromIncarnation, toIncarnation } as EnvelopeRecord;
  Object.defineProperty(out, 'payload', {
    enumerable: true,
    configurable: true,
    get() {
      const payload = payloadOf(id) ?? {};
      Object.defineProperty(out, 'payload', { value: payload, enumerable: true, configurable: true, writable: true });
      return payload;
    },
  });
  return Object.assign(out, rest);
}
