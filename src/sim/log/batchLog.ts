/**
 * A partition log's record batches as bytes, not objects: the persistent append-only sequence of
 * `AppendLog`, with each batch written once into an append-only byte store (`valueCodec.ts`: an
 * interned shape per object, strings interned per field while they repeat, inline otherwise) and
 * rebuilt as a plain, equal `RecordBatch` each time it is read. A run keeps every batch of every
 * log for its whole length, and as objects (a batch, an array, a record, its origin, its key and
 * value strings) a record cost ~270 bytes of heap; as bytes, ~30 plus the value's characters.
 *
 * A version of the log is (shared rows, length); rows are a batch's store, its start in that store
 * and its last offset (so a search by offset reads no bytes). Appending to the newest version
 * writes in place; appending to an older one (a truncated log, a run forked or a view replayed from
 * a checkpoint) copies the rows first and writes into a new store. Stores are never overwritten,
 * so every version stays readable.
 *
 * Shared structure: a batch read from a log remembers where its bytes are, and appending that
 * unchanged object to a log — a follower's copy of the leader's batches, the batches the cleaner
 * keeps — points at the same bytes instead of writing them again.
 *
 * Fields are private: XState's snapshot persistence walks contexts key by key, and a log of 100k
 * records must not be walked at every checkpoint.
 */
import { ByteStore, ValueReader, ValueTables, writeValue } from '../kernel/valueCodec';
import type { RecordBatch } from './recordBatch';

/** One append-only byte store and the tables its bytes were written with (shared by a log's chunks). */
class BatchBytes {
  readonly store = new ByteStore();
  constructor(readonly tables: ValueTables) {}
}

/**
 * A log writes into chunks of about this many bytes: a full chunk gives back the room it kept to
 * grow, so a long log holds its bytes plus at most one chunk's spare room, not up to as much again.
 */
const CHUNK_BYTES = 1 << 18;

/** Where a batch object read from a log has its bytes (weak: it goes with the object). */
const origins = new WeakMap<object, { readonly bytes: BatchBytes; readonly start: number }>();

/** A row's store is an index into `stores` (16 bits); a log that meets more stores writes its own copy. */
const MAX_STORES = 65535;

/** How many decoded batches a log keeps at hand (a power of two). */
const CACHE_SIZE = 16;

/** The rows shared by the versions of one log. */
class Rows {
  starts = new Uint32Array(16);
  lastOffsets = new Float64Array(16);
  sources = new Uint16Array(16);
  count = 0;
  /**
   * The last batches read, by row (direct-mapped): a row never changes once written, and a batch is
   * never changed, so a reader that comes back to a batch (a consumer fetching from inside a large
   * batch, a follower, the checker) gets the same object without decoding it again.
   */
  readonly cachedRow = new Int32Array(CACHE_SIZE).fill(-1);
  readonly cached: (RecordBatch | undefined)[] = new Array(CACHE_SIZE);
  /** The stores this log's rows point into; `own` is where it writes. */
  stores: BatchBytes[] = [];
  own: number = -1;

  push(source: number, start: number, lastOffset: number): void {
    if (this.count === this.starts.length) this.resize(this.count * 2);
    this.starts[this.count] = start;
    this.lastOffsets[this.count] = lastOffset;
    this.sources[this.count] = source;
    this.count++;
  }

  resize(capacity: number): void {
    const starts = new Uint32Array(capacity);
    starts.set(this.starts.subarray(0, this.count));
    const lastOffsets = new Float64Array(capacity);
    lastOffsets.set(this.lastOffsets.subarray(0, this.count));
    const sources = new Uint16Array(capacity);
    sources.set(this.sources.subarray(0, this.count));
    this.starts = starts;
    this.lastOffsets = lastOffsets;
    this.sources = sources;
  }

  /** The first `length` rows, over the same stores, to grow separately. */
  copy(length: number): Rows {
    const r = new Rows();
    r.stores = this.stores.slice();
    // a copy writes into a store of its own: the versions that copy are a replay from a checkpoint
    // (a view), a fork or a truncated log, and what they append must go with them, not stay in the
    // run's store for good
    r.own = -1;
    r.count = length;
    r.resize(Math.max(16, length * 2));
    r.starts.set(this.starts.subarray(0, length));
    r.lastOffsets.set(this.lastOffsets.subarray(0, length));
    r.sources.set(this.sources.subarray(0, length));
    return r;
  }

  /** The index of `bytes` in this log's stores, added if there is room; -1 if there is none. */
  sourceOf(bytes: BatchBytes): number {
    const i = this.stores.indexOf(bytes);
    if (i >= 0) return i;
    if (this.stores.length >= MAX_STORES) return -1;
    this.stores.push(bytes);
    return this.stores.length - 1;
  }

  /** Writes a batch into this log's own store; its row's source and start. */
  write(batch: RecordBatch): { source: number; start: number } {
    let bytes = this.own < 0 ? null : (this.stores[this.own] as BatchBytes);
    if (bytes === null || bytes.store.length >= CHUNK_BYTES) {
      if (this.stores.length >= MAX_STORES) throw new Error('a partition log outgrew its byte stores');
      bytes?.store.trim();
      bytes = new BatchBytes(bytes?.tables ?? new ValueTables());
      this.stores.push(bytes);
      this.own = this.stores.length - 1;
    }
    const start = bytes.store.length;
    writeValue(bytes.store, bytes.tables, batch);
    return { source: this.own, start };
  }
}

export class BatchLog {
  readonly #rows: Rows | null;
  readonly #length: number;

  private constructor(rows: Rows | null, length: number) {
    this.#rows = rows;
    this.#length = length;
  }

  static empty(): BatchLog {
    return new BatchLog(null, 0);
  }

  /** A log of these batches (a cleaned log): written into `like`'s store when given, so kept bytes are shared. */
  static of(items: readonly RecordBatch[], like?: BatchLog): BatchLog {
    let log = BatchLog.empty();
    const base = like ? like.#rows : null;
    if (base) log = new BatchLog(base.copy(0), 0);
    for (const b of items) log = log.append(b);
    return log;
  }

  get length(): number {
    return this.#length;
  }

  at(index: number): RecordBatch | undefined {
    if (!(index >= 0 && index < this.#length)) return undefined;
    const rows = this.#rows as Rows;
    const slot = index & (CACHE_SIZE - 1);
    if (rows.cachedRow[slot] === index) return rows.cached[slot];
    const bytes = rows.stores[rows.sources[index] as number] as BatchBytes;
    const start = rows.starts[index] as number;
    const batch = new ValueReader(bytes.store.bytes, bytes.tables, start).value() as RecordBatch;
    origins.set(batch, { bytes, start });
    rows.cachedRow[slot] = index;
    rows.cached[slot] = batch;
    return batch;
  }

  last(): RecordBatch | undefined {
    return this.at(this.#length - 1);
  }

  /**
   * How many first batches this log and `other` have in common: the same bytes, as a log restored
   * from a checkpoint and replayed has, though its rows are a copy.
   */
  sharedPrefix(other: BatchLog): number {
    const n = Math.min(this.#length, other.#length);
    if (n === 0) return 0;
    const a = this.#rows as Rows;
    const b = other.#rows as Rows;
    if (a === b) return n;
    let i = 0;
    while (i < n && a.starts[i] === b.starts[i] && a.stores[a.sources[i] as number] === b.stores[b.sources[i] as number]) i++;
    return i;
  }

  /** The last offset of the batch at `index` (no bytes read). */
  lastOffsetAt(index: number): number {
    return (this.#rows as Rows).lastOffsets[index] as number;
  }

  append(batch: RecordBatch): BatchLog {
    let rows = this.#rows ?? new Rows();
    if (rows.count !== this.#length) rows = rows.copy(this.#length);
    const origin = origins.get(batch);
    const source = origin ? rows.sourceOf(origin.bytes) : -1;
    if (origin && source >= 0) rows.push(source, origin.start, batch.lastOffset);
    else {
      const w = rows.write(batch);
      rows.push(w.source, w.start, batch.lastOffset);
    }
    return new BatchLog(rows, this.#length + 1);
  }

  /** The first `length` batches (a truncated log; the next append to it copies the rows). */
  take(length: number): BatchLog {
    return length >= this.#length ? this : new BatchLog(this.#rows, Math.max(0, length));
  }

  /** A new log with the batch at `index` replaced (rewrites the rows; for rare edits). */
  with(index: number, batch: RecordBatch): BatchLog {
    const items = this.toArray();
    items[index] = batch;
    return BatchLog.of(items, this);
  }

  toArray(): RecordBatch[] {
    const out: RecordBatch[] = new Array(this.#length);
    for (let i = 0; i < this.#length; i++) out[i] = this.at(i) as RecordBatch;
    return out;
  }

  *[Symbol.iterator](): Iterator<RecordBatch> {
    for (let i = 0; i < this.#length; i++) yield this.at(i) as RecordBatch;
  }

  /** Index of the first batch whose last offset is at or after `offset` (this.length if none). */
  indexAtOrAfter(offset: number): number {
    const rows = this.#rows;
    let lo = 0;
    let hi = this.#length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (((rows as Rows).lastOffsets[mid] as number) >= offset) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Index of the first batch for which `isAtOrAfter` is true (batches must be ordered by it). */
  lowerBound(isAtOrAfter: (batch: RecordBatch) => boolean): number {
    let lo = 0;
    let hi = this.#length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (isAtOrAfter(this.at(mid) as RecordBatch)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  toJSON(): RecordBatch[] {
    return this.toArray();
  }
}
