/**
 * A checkpoint as a recording run keeps it: its numbers as fields, the rest — queue, connections,
 * process and actor snapshots — packed into the recorder's checkpoint bytes (stateCodec.ts) and
 * unpacked when read. A checkpoint's objects are mostly new since the checkpoint before (every
 * context an actor's handler replaced), so keeping them as objects costs ~23 KB per checkpoint on
 * the benchmark pipeline, ~90 bytes per step; packed they cost a fraction of that.
 *
 * Reading any packed field unpacks them all once; the last checkpoint unpacked is kept, so a
 * restore (which reads every field) decodes once. Unpacked values are fresh objects equal to the
 * originals (the same keys in the same order, Maps and shared structure kept), which is all a
 * restore needs: state is immutable and never compared by identity across a checkpoint.
 */
import type { Checkpoint } from './checkpoint';
import { StateReader, StateWriter } from './stateCodec';
import type { ByteStore, ValueTables } from './valueCodec';

/** The fields a checkpoint keeps as they are (numbers and small values). */
const PLAIN = [
  'step',
  'now',
  'seq',
  'envelopeCounter',
  'deferredForeground',
  'firstSeq',
  'instantSteps',
  'pendingStop',
  'quietDeadline',
  'prng',
  'hash',
  'lastFaultAt',
  'lastStepAt',
] as const;
type Plain = Pick<Checkpoint, (typeof PLAIN)[number]>;

/** The fields it packs, in the order they are written. */
export const PACKED = [
  'queue',
  'cancelled',
  'timerIndex',
  'foreground',
  'requestTimeouts',
  'network',
  'faultCounters',
  'openRequests',
  'processes',
  'actors',
] as const;
export type PackedPart = Pick<Checkpoint, (typeof PACKED)[number]>;

let lastUnpacked: { readonly cp: PackedCheckpoint | null; readonly part: PackedPart | null } = { cp: null, part: null };

// the plain fields are own fields (set from a list), the packed ones getters on the prototype (below)
export interface PackedCheckpoint extends Checkpoint {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: every Checkpoint field is defined, by the constructor or a getter
export class PackedCheckpoint {
  /**
   * `unpack` gives the packed fields back; `bytes` is what they take (for memory budgets).
   */
  constructor(
    plain: Plain,
    private readonly unpack: () => PackedPart,
    readonly bytes: number,
  ) {
    Object.assign(this, plainOf(plain));
  }

  /** The packed fields, unpacked (once for consecutive reads of one checkpoint). */
  part(): PackedPart {
    if (lastUnpacked.cp !== this) lastUnpacked = { cp: this, part: this.unpack() };
    return lastUnpacked.part as PackedPart;
  }

  /** The same checkpoint with some fields changed (a fork's view of a recorded one); unpacks only when read. */
  derive(plain: Partial<Plain>, part: (p: PackedPart) => PackedPart): PackedCheckpoint {
    return new PackedCheckpoint({ ...plainOf(this), ...plain }, () => part(this.part()), this.bytes);
  }
}

for (const field of PACKED)
  Object.defineProperty(PackedCheckpoint.prototype, field, {
    get(this: PackedCheckpoint) {
      return this.part()[field];
    },
  });

function plainOf(cp: Plain): Plain {
  const out: Record<string, unknown> = {};
  for (const field of PLAIN) out[field] = cp[field];
  return out as unknown as Plain;
}

/** `cp` packed at the end of `store` (one encoding, so structure shared between its fields stays shared). */
export function packCheckpoint(cp: Checkpoint, store: ByteStore, tables: ValueTables): PackedCheckpoint {
  const start = store.length;
  const w = new StateWriter(store, tables);
  w.write(PACKED.map((field) => cp[field]));
  const refs = w.refs;
  const unpack = (): PackedPart => {
    const values = new StateReader(store.bytes, tables, refs, start).read() as unknown[];
    const part: Record<string, unknown> = {};
    PACKED.forEach((field, i) => {
      part[field] = values[i];
    });
    return part as unknown as PackedPart;
  };
  return new PackedCheckpoint(plainOf(cp), unpack, store.length - start + refs.length * 8);
}
