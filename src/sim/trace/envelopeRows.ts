/**
 * Every envelope of a trace without its payload, for readers that go over all of them (the network
 * invariants, the message diagram, the cost model, the fault space). A trace's envelope record reads
 * its payload on demand (replaying the step that sent it), and a record built that way costs ~20×
 * a plain object: going over every record was most of `checkInvariants`' time. The recorder's rows
 * are plain objects; a hand-made list's records are copied without theirs.
 */
import type { EnvelopeRecord } from '../kernel/envelope';
import type { EnvelopeRow } from '../kernel/recorder';
import { EnvelopeList, type ListLike } from '../kernel/traceLists';

export type { EnvelopeRow };

export function* envelopeRows(trace: { readonly envelopes: ListLike<EnvelopeRecord> }): Generator<EnvelopeRow, void, undefined> {
  const list = trace.envelopes;
  if (list instanceof EnvelopeList) {
    for (let i = 0; i < list.length; i++) {
      const row = list.row(i);
      if (row) yield row;
    }
    return;
  }
  for (const e of list) {
    if (!e) continue;
    // key by key: destructuring `payload` out would read it
    const row: Record<string, unknown> = {};
    for (const k of Object.keys(e)) if (k !== 'payload') row[k] = e[k as keyof EnvelopeRecord];
    yield row as unknown as EnvelopeRow;
  }
}
