/**
 * The events and records the stream-thread tests hand the machine (threadAt): an input record, a
 * changelog record, a reply from another actor, an assignment from the main consumer, a timer; and
 * what to read of its effects (the calls it made, the notes it wrote).
 */
import type { Effect } from '../../src/sim/kernel/effects';
import type { RecordForApp } from '../../src/sim/protocol/messages';

/** A record of the input topic `in`, with an event_id header. */
export const inputRecord = (partition: number, offset: number, key = 'a'): RecordForApp => ({
  topic: 'in',
  partition,
  offset,
  key,
  value: 'v',
  headers: { event_id: `e${partition}-${offset}` },
});

/** A record of the count store's changelog. */
export const changelogRecord = (partition: number, offset: number, key: string, value: string) => ({
  ...inputRecord(partition, offset, key),
  topic: 'app-count-store-changelog',
  value,
  headers: {},
});

/** A successful reply from another actor of the process (the consumer, the producer, the restore consumer). */
export const reply = (from: string, args: Record<string, unknown>, now: number) => ({
  type: 'reply',
  now,
  from,
  args: { ok: true, error: null, ...args },
});

/** The main consumer's onPartitionsAssigned with partitions of `in`. */
export const assignment = (partitions: number[], now: number) => ({
  type: 'onPartitionsAssigned',
  now,
  from: 'st.consumer',
  args: { partitions: partitions.map((partition) => ({ topic: 'in', partition })) },
});

/** A timer of the thread's own. */
export const timer = (name: string, now: number) => ({ type: name, now, key: name, data: {} });

/** The calls among the effects, as `name→to`. */
export const callNames = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'call' ? [`${e.name}→${e.to}`] : []));

/** The texts of the notes among the effects. */
export const notes = (fx: readonly Effect[]) =>
  fx.flatMap((e) => (e.type === 'fact' && e.fact.kind === 'note' ? [(e.fact as unknown as { text: string }).text] : []));
