/**
 * A compact encoding of simulation state (a checkpoint's queue, network and actor snapshots) into
 * a byte store, so that a long run keeps a few kilobytes per checkpoint instead of the objects.
 *
 * Like valueCodec.ts (whose byte store and tables it shares) but for state, not JSON: decoding must
 * give back a value every handler treats exactly as the original. So it keeps what JSON loses:
 * Maps and Sets with their entry order, `undefined`, -0 and NaN, and shared structure — an object
 * met twice is written once and decoded as one object, as the original was. What it cannot rebuild
 * faithfully (an instance of a class such as AppendLog, a function, an array with holes, an object
 * with another prototype) is not encoded but kept by reference in `refs`: state is immutable, so a
 * reference is as good as a copy (and a partition log's records stay shared with the log instead of
 * being copied into every checkpoint).
 *
 * Consecutive encodings into one byte store share what they met (`StateSharing`): an object the
 * encoding before met is not written again but referred to where it was written (T_AT, a byte
 * position). State is immutable (handlers replace contexts, never change them; the kernel copies
 * its own mutable structures into fresh objects for a checkpoint), so an object met again is the
 * value it was, and a checkpoint writes mostly what changed since the one before: a producer's
 * records still pending, an idle actor's context, a connection no request used are written once,
 * not once per checkpoint. Only the last encoding's objects are remembered (a Map held until the
 * next one), so what is kept for this is one state's worth of objects, not a run's. A reader decodes
 * from any position, following back-references into earlier encodings.
 */
import { ByteReader, type ByteStore, setDecoded, type ValueTables } from './valueCodec';

const T_CONST = 0;
const T_UINT = 1;
const T_NINT = 2;
const T_F64 = 3;
const T_SREF = 4;
const T_SINL = 5;
const T_ARR = 6;
const T_OBJ = 7;
const T_MAP = 8;
const T_SET = 9;
/** An object written before into this store: the byte position of its token. */
const T_AT = 10;
/** A value kept by reference: its index in `refs`. */
const T_REF = 11;
const TAGS = 16;

const C_NULL = 0;
const C_FALSE = 1;
const C_TRUE = 2;
const C_UNDEF = 3;

const MAX_SMALL = 2 ** 27;

/**
 * What consecutive encodings into one byte store share: where each object the last encoding met
 * was written, and the values kept by reference (indexes into one list for the whole store).
 */
export class StateSharing {
  known = new Map<object, number>();
  readonly refs: unknown[] = [];

  /** Forgets the last encoding's objects (the next encoding writes everything it meets). */
  forget(): void {
    this.known = new Map();
  }
}

/** Encodes one value graph; `refs` collects what is kept by reference. */
export class StateWriter {
  /** Where each object this encoding met is written (here or by the encoding before). */
  private readonly met = new Map<object, number>();
  private readonly known: Map<object, number>;
  readonly refs: unknown[];

  constructor(
    private readonly out: ByteStore,
    private readonly tables: ValueTables,
    private readonly sharing: StateSharing = new StateSharing(),
  ) {
    this.known = sharing.known;
    this.refs = sharing.refs;
  }

  /** Writes `v` and hands what it met to the next encoding into this store. */
  writeShared(v: unknown): void {
    this.write(v);
    this.sharing.known = this.met;
  }

  private token(payload: number, tag: number): void {
    this.out.varint(payload * TAGS + tag);
  }

  private ref(v: unknown): void {
    this.token(this.refs.length, T_REF);
    this.refs.push(v);
  }

  write(v: unknown, slot = 0): void {
    switch (typeof v) {
      case 'number':
        if (Number.isInteger(v) && v > -MAX_SMALL && v < MAX_SMALL && !Object.is(v, -0)) {
          if (v >= 0) this.token(v, T_UINT);
          else this.token(-v - 1, T_NINT);
        } else {
          this.token(0, T_F64);
          this.out.f64(v);
        }
        return;
      case 'string': {
        const id = this.tables.internFor(slot, v);
        if (id >= 0) {
          this.token(id, T_SREF);
          return;
        }
        this.token(v.length, T_SINL);
        this.out.chars(v);
        return;
      }
      case 'boolean':
        this.token(v ? C_TRUE : C_FALSE, T_CONST);
        return;
      case 'undefined':
        this.token(C_UNDEF, T_CONST);
        return;
      case 'object':
        if (v === null) this.token(C_NULL, T_CONST);
        else this.object(v, slot);
        return;
      default:
        // functions, symbols, bigints
        this.ref(v);
    }
  }

  private object(v: object, slot: number): void {
    let known = this.met.get(v);
    if (known === undefined) {
      known = this.known.get(v);
      if (known !== undefined) this.met.set(v, known);
    }
    if (known !== undefined) {
      this.token(known, T_AT);
      return;
    }
    // where this object's token goes: what meets it again (a child, a later checkpoint) points here
    const at = this.out.length;
    const proto = Object.getPrototypeOf(v);
    const tables = this.tables;
    if (proto === Array.prototype) {
      const a = v as unknown[];
      for (let i = 0; i < a.length; i++)
        if (!(i in a)) {
          this.ref(v);
          return;
        }
      this.met.set(v, at);
      this.token(a.length, T_ARR);
      const item = tables.itemSlot(slot);
      for (let i = 0; i < a.length; i++) this.write(a[i], item);
      return;
    }
    if (proto === Object.prototype) {
      const o = v as Record<string, unknown>;
      this.met.set(v, at);
      const shape = tables.shapeOf(o, slot);
      this.token(shape, T_OBJ);
      const slots = tables.shapeSlots[shape] as number[];
      let i = 0;
      for (const key in o) this.write(o[key], slots[i++] as number);
      return;
    }
    if (proto === Map.prototype) {
      const m = v as Map<unknown, unknown>;
      this.met.set(v, at);
      this.token(m.size, T_MAP);
      const keySlot = tables.itemSlot(slot);
      const valueSlot = tables.itemSlot(keySlot);
      for (const [k, x] of m) {
        this.write(k, keySlot);
        this.write(x, valueSlot);
      }
      return;
    }
    if (proto === Set.prototype) {
      const s = v as Set<unknown>;
      this.met.set(v, at);
      this.token(s.size, T_SET);
      const item = tables.itemSlot(slot);
      for (const x of s) this.write(x, item);
      return;
    }
    this.ref(v);
  }
}

/** Decodes what a StateWriter wrote, from a position. */
export class StateReader extends ByteReader {
  /** The objects decoded so far, by the position of their token. */
  private readonly seen = new Map<number, object>();

  constructor(
    bytes: Uint8Array,
    private readonly tables: ValueTables,
    private readonly refs: readonly unknown[],
    start: number,
  ) {
    super(bytes, start);
  }

  read(): unknown {
    const at = this.pos;
    const token = this.varint();
    const tag = token % TAGS;
    const payload = (token - tag) / TAGS;
    if (tag <= T_SINL) return this.scalar(tag, payload, this.tables.strings);
    switch (tag) {
      case T_ARR: {
        const a: unknown[] = new Array(payload);
        this.seen.set(at, a);
        for (let i = 0; i < payload; i++) a[i] = this.read();
        return a;
      }
      case T_OBJ: {
        const keys = this.tables.shapes[payload] as string[];
        const o: Record<string, unknown> = {};
        this.seen.set(at, o);
        for (let i = 0; i < keys.length; i++) setDecoded(o, keys[i] as string, this.read());
        return o;
      }
      case T_MAP: {
        const m = new Map<unknown, unknown>();
        this.seen.set(at, m);
        for (let i = 0; i < payload; i++) {
          const k = this.read();
          m.set(k, this.read());
        }
        return m;
      }
      case T_SET: {
        const s = new Set<unknown>();
        this.seen.set(at, s);
        for (let i = 0; i < payload; i++) s.add(this.read());
        return s;
      }
      case T_AT: {
        const known = this.seen.get(payload);
        if (known !== undefined) return known;
        // written by an earlier encoding (or earlier in this one, not yet read): read it there
        const back = this.pos;
        this.pos = payload;
        const v = this.read();
        this.pos = back;
        return v;
      }
      case T_REF:
        return this.refs[payload];
      default:
        throw new Error(`stateCodec: unknown tag ${tag}`);
    }
  }
}
