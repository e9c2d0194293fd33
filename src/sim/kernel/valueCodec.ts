/**
 * A compact encoding of JSON-like values (facts, a step's detail, fault lines) into one growing
 * byte store, so a long run keeps bytes instead of objects.
 *
 * Each value is a token: varint(payload × 8 + tag), then what the tag needs. Objects are written as
 * a shape (their key list, interned once) followed by their values; strings either as an id in a
 * string table or inline as UTF-16 code units. Which strings are interned is decided per field:
 * a field whose values keep repeating (topics, client ids, error codes) interns them, a field whose
 * values are nearly all new (keys, values, event ids) writes them inline, so the table never fills
 * with strings seen once. Decoding rebuilds an equal value (a property holding `undefined` stays
 * present; `toJSON` values are stored as what `toJSON` returns).
 */

const T_CONST = 0;
const T_UINT = 1;
const T_NINT = 2;
const T_F64 = 3;
const T_SREF = 4;
const T_SINL = 5;
const T_ARR = 6;
const T_OBJ = 7;

const C_NULL = 0;
const C_FALSE = 1;
const C_TRUE = 2;
const C_UNDEF = 3;

/** Below this, an integer is a varint token; above, eight bytes. */
const MAX_SMALL = 2 ** 27;

/** A slot interns its strings until it has seen this many misses and four times more misses than hits. */
const SLOT_TRIAL = 32;
/**
 * …or until it has added this many strings to the table: a field whose values keep coming new but
 * are each met a few times (a record's key: sent, appended, fetched, processed) would otherwise grow
 * the table by a string per record for the whole run — a table, and a Map, that only grow.
 */
const SLOT_STRINGS = 4096;

export class ByteStore {
  bytes = new Uint8Array(1 << 12);
  length = 0;

  private grow(extra: number): void {
    let cap = Math.max(1 << 12, this.bytes.length * 2);
    while (cap < this.length + extra) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }

  byte(b: number): void {
    if (this.length + 1 > this.bytes.length) this.grow(1);
    this.bytes[this.length++] = b;
  }

  /** An unsigned integer below 2^53, seven bits a byte. */
  varint(u: number): void {
    if (this.length + 8 > this.bytes.length) this.grow(8);
    const b = this.bytes;
    let n = this.length;
    if (u < 0x80) {
      // most tokens are one byte
      b[n] = u;
      this.length = n + 1;
      return;
    }
    if (u <= 0x7fffffff) {
      // the same bytes with 32-bit integer operations (the general loop below divides in floats)
      while (u >= 0x80) {
        b[n++] = (u & 0x7f) | 0x80;
        u >>>= 7;
      }
    } else
      while (u >= 0x80) {
        b[n++] = (u % 0x80) | 0x80;
        u = Math.floor(u / 0x80);
      }
    b[n++] = u;
    this.length = n;
  }

  /** A string's UTF-16 code units, each a varint (what `varint` would write for each, room made once). */
  chars(s: string): void {
    const len = s.length;
    if (this.length + 3 * len > this.bytes.length) this.grow(3 * len);
    const b = this.bytes;
    let n = this.length;
    for (let i = 0; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) b[n++] = c;
      else if (c < 0x4000) {
        b[n++] = (c & 0x7f) | 0x80;
        b[n++] = c >>> 7;
      } else {
        b[n++] = (c & 0x7f) | 0x80;
        b[n++] = ((c >>> 7) & 0x7f) | 0x80;
        b[n++] = c >>> 14;
      }
    }
    this.length = n;
  }

  f64(x: number): void {
    if (this.length + 8 > this.bytes.length) this.grow(8);
    f64scratch[0] = x;
    this.bytes.set(f64bytes, this.length);
    this.length += 8;
  }

  /** A copy holding the first `length` bytes (a fork keeps the part of the run it shares). */
  prefix(length: number, exact = false): ByteStore {
    const s = new ByteStore();
    s.bytes = new Uint8Array(exact ? length : Math.max(1 << 12, length * 2));
    s.bytes.set(this.bytes.subarray(0, length));
    s.length = length;
    return s;
  }

  /** Gives back the room kept to grow (the same store: whoever reads it reads on). */
  trim(): void {
    if (this.bytes.length > this.length) this.bytes = this.bytes.slice(0, this.length);
  }

  /** Bytes held, for the benchmarks. */
  get retainedBytes(): number {
    return this.bytes.byteLength;
  }
}

const f64scratch = new Float64Array(1);
const f64bytes = new Uint8Array(f64scratch.buffer);

interface ShapeNode {
  id: number;
  readonly next: Map<string, ShapeNode>;
  /** The child taken last, and its key: most nodes have one child, or one taken far more often. */
  lastKey: string | null;
  lastNext: ShapeNode | null;
}

function shapeNode(): ShapeNode {
  return { id: -1, next: new Map(), lastKey: null, lastNext: null };
}

/** The string table, object shapes and per-field interning decisions shared by a writer and its readers. */
export class ValueTables {
  readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  /** Key lists by shape id, and for each field its slot. */
  readonly shapes: string[][] = [];
  readonly shapeSlots: number[][] = [];
  private readonly shapeRoot: ShapeNode = shapeNode();
  /** Per slot: hits, misses, and whether it still interns. */
  private slotHits: number[] = [0];
  private slotMisses: number[] = [0];
  private slotInterns: boolean[] = [true];
  /** The slot of an array's items, by the array's slot (-1: none yet). */
  private readonly itemSlots: number[] = [-1];
  /**
   * Per slot, the last shape and the last interned string written in it: a field's values mostly
   * repeat the one before (every record of a batch has one shape, a fact's topic is the topic of the
   * fact before), and a check against it costs a few comparisons where the shape trie costs a map
   * lookup per key and the string table one lookup (and a hash of the string) per string.
   */
  private readonly slotShape: number[] = [-1];
  private readonly slotString: (string | null)[] = [null];
  private readonly slotStringId: number[] = [-1];

  newSlot(): number {
    this.slotHits.push(0);
    this.slotMisses.push(0);
    this.slotInterns.push(true);
    this.itemSlots.push(-1);
    this.slotShape.push(-1);
    this.slotString.push(null);
    this.slotStringId.push(-1);
    return this.slotHits.length - 1;
  }

  itemSlot(slot: number): number {
    let s = this.itemSlots[slot] as number;
    if (s < 0) {
      s = this.newSlot();
      this.itemSlots[slot] = s;
    }
    return s;
  }

  /** The shape id of an object's own enumerable keys (written in `slot`), made on first sight. */
  shapeOf(o: Record<string, unknown>, slot = 0): number {
    const last = this.slotShape[slot] as number;
    if (last >= 0) {
      const keys = this.shapes[last] as string[];
      let i = 0;
      let same = true;
      for (const key in o) {
        if (keys[i] !== key) {
          same = false;
          break;
        }
        i++;
      }
      if (same && i === keys.length) return last;
    }
    const id = this.shapeInTrie(o);
    this.slotShape[slot] = id;
    return id;
  }

  private shapeInTrie(o: Record<string, unknown>): number {
    let node = this.shapeRoot;
    for (const key in o) {
      if (node.lastKey === key) {
        node = node.lastNext as ShapeNode;
        continue;
      }
      let next = node.next.get(key);
      if (!next) {
        next = shapeNode();
        node.next.set(key, next);
      }
      node.lastKey = key;
      node.lastNext = next;
      node = next;
    }
    if (node.id < 0) {
      const keys: string[] = [];
      for (const key in o) keys.push(key);
      node.id = this.shapes.length;
      this.shapes.push(keys);
      this.shapeSlots.push(keys.map(() => this.newSlot()));
    }
    return node.id;
  }

  /** The id to write for `s` in this slot, or -1 to write it inline. */
  internFor(slot: number, s: string): number {
    // the string table only grows: the slot's last interned string keeps its id
    if (this.slotString[slot] === s) {
      this.slotHits[slot] = (this.slotHits[slot] as number) + 1;
      return this.slotStringId[slot] as number;
    }
    // a slot that no longer interns writes its strings inline, known or not: most are new (a
    // record's key or value), and looking each up in the table would hash it for nothing
    if (!this.slotInterns[slot]) return -1;
    const known = this.stringIds.get(s);
    if (known !== undefined) {
      this.slotHits[slot] = (this.slotHits[slot] as number) + 1;
      this.slotString[slot] = s;
      this.slotStringId[slot] = known;
      return known;
    }
    const misses = (this.slotMisses[slot] as number) + 1;
    this.slotMisses[slot] = misses;
    if ((misses > SLOT_TRIAL && misses > 4 * (this.slotHits[slot] as number)) || misses > SLOT_STRINGS) {
      this.slotInterns[slot] = false;
      return -1;
    }
    const id = this.strings.length;
    this.strings.push(s);
    this.stringIds.set(s, id);
    this.slotString[slot] = s;
    this.slotStringId[slot] = id;
    return id;
  }
}

/** Writes `v` to `out` in `slot` (0 for a value of its own). */
export function writeValue(out: ByteStore, tables: ValueTables, v: unknown, slot = 0): void {
  switch (typeof v) {
    case 'number':
      if (Number.isInteger(v) && v > -MAX_SMALL && v < MAX_SMALL) {
        if (v >= 0) out.varint(v * 8 + T_UINT);
        else out.varint((-v - 1) * 8 + T_NINT);
      } else {
        out.varint(T_F64);
        out.f64(v);
      }
      return;
    case 'string': {
      const id = tables.internFor(slot, v);
      if (id >= 0) {
        out.varint(id * 8 + T_SREF);
        return;
      }
      out.varint(v.length * 8 + T_SINL);
      out.chars(v);
      return;
    }
    case 'boolean':
      out.varint((v ? C_TRUE : C_FALSE) * 8 + T_CONST);
      return;
    case 'undefined':
      out.varint(C_UNDEF * 8 + T_CONST);
      return;
    case 'object': {
      if (v === null) {
        out.varint(C_NULL * 8 + T_CONST);
        return;
      }
      if (Array.isArray(v)) {
        out.varint(v.length * 8 + T_ARR);
        const item = tables.itemSlot(slot);
        for (let i = 0; i < v.length; i++) writeValue(out, tables, v[i], item);
        return;
      }
      const o = v as { toJSON?: () => unknown } & Record<string, unknown>;
      if (typeof o.toJSON === 'function') {
        writeValue(out, tables, o.toJSON(), slot);
        return;
      }
      const shape = tables.shapeOf(o, slot);
      out.varint(shape * 8 + T_OBJ);
      const slots = tables.shapeSlots[shape] as number[];
      let i = 0;
      for (const key in o) writeValue(out, tables, o[key], slots[i++] as number);
      return;
    }
    default:
      out.varint(C_NULL * 8 + T_CONST);
  }
}

/**
 * Reads varints and inline strings from bytes, from a position: what valueCodec's and stateCodec's
 * readers share.
 */
export class ByteReader {
  pos: number;

  constructor(
    protected readonly bytes: Uint8Array,
    start: number,
  ) {
    this.pos = start;
  }

  varint(): number {
    const b = this.bytes;
    let x = 0;
    let mul = 1;
    for (;;) {
      const c = b[this.pos++] as number;
      x += (c & 0x7f) * mul;
      if (c < 0x80) return x;
      mul *= 0x80;
    }
  }

  /** The value of a scalar token — constants, integers, floats, strings: tags 0 to 5, the same in both codecs. */
  scalar(tag: number, payload: number, strings: readonly string[]): unknown {
    switch (tag) {
      case T_CONST:
        return payload === C_NULL ? null : payload === C_FALSE ? false : payload === C_TRUE ? true : undefined;
      case T_UINT:
        return payload;
      case T_NINT:
        return -payload - 1;
      case T_F64:
        f64bytes.set(this.bytes.subarray(this.pos, this.pos + 8));
        this.pos += 8;
        return f64scratch[0];
      case T_SREF:
        return strings[payload];
      default:
        return this.inlineString(payload);
    }
  }

  /**
   * `length` UTF-16 code units, each a varint, as one flat string. Not a character at a time: past
   * 12 characters each `+=` makes a cons string, and a decoded string of n characters would be a
   * chain of n objects for as long as it is kept (a restored checkpoint keeps its strings).
   */
  inlineString(length: number): string {
    let s = '';
    if (length <= 12) {
      for (let i = 0; i < length; i++) s += String.fromCharCode(this.varint());
      return s;
    }
    // in chunks, so that a long string never spreads too many arguments
    for (let done = 0; done < length; ) {
      const n = Math.min(4096, length - done);
      const codes: number[] = new Array(n);
      for (let i = 0; i < n; i++) codes[i] = this.varint();
      s += String.fromCharCode(...codes);
      done += n;
    }
    return s;
  }
}

/** One property of a decoded object (a key named __proto__ stays a property, never a prototype). */
export function setDecoded(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

/** Reads values back from a store, from a position. */
export class ValueReader extends ByteReader {
  constructor(
    bytes: Uint8Array,
    private readonly tables: ValueTables,
    start = 0,
  ) {
    super(bytes, start);
  }

  value(): unknown {
    const token = this.varint();
    const tag = token % 8;
    const payload = (token - tag) / 8;
    if (tag <= T_SINL) return this.scalar(tag, payload, this.tables.strings);
    switch (tag) {
      case T_ARR: {
        const a: unknown[] = new Array(payload);
        for (let i = 0; i < payload; i++) a[i] = this.value();
        return a;
      }
      default: {
        const keys = this.tables.shapes[payload] as string[];
        const o: Record<string, unknown> = {};
        for (let i = 0; i < keys.length; i++) setDecoded(o, keys[i] as string, this.value());
        return o;
      }
    }
  }
}
