/**
 * envelopeRows: every envelope of a trace without its payload, in order — the recorder's rows for a
 * recorded trace, a copy of each record without its payload for a hand-made list — and no payload
 * read on the way (a payload is rebuilt by replaying the step that sent it).
 */
import { describe, expect, it, vi } from 'vitest';
import type { EnvelopeRecord } from '../src/sim/kernel/envelope';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { envelopeRows } from '../src/sim/trace/envelopeRows';

const trace = runScenario(findPreset('lost-ack-idempotent')?.scenario);
const withoutPayload = (e: EnvelopeRecord) => {
  const { payload: _payload, ...row } = e;
  return row;
};

describe('envelopeRows', () => {
  it('lists every envelope of a recorded trace, in order, as its record without the payload', () => {
    const rows = [...envelopeRows(trace)];
    expect(rows.length).toBe(trace.envelopes.length);
    expect(rows.length).toBeGreaterThan(20);
    expect(rows).toEqual(trace.envelopes.map(withoutPayload));
    expect(rows.some((r) => 'payload' in r)).toBe(false);
  });

  it('reads no payload of a hand-made list and skips its holes', () => {
    const read = vi.fn(() => ({ correlationId: 1 }));
    const first = withoutPayload(trace.envelopes.at(0) as EnvelopeRecord);
    const record = Object.defineProperty({ ...first }, 'payload', { get: read, enumerable: true }) as EnvelopeRecord;
    const list = [record, undefined as unknown as EnvelopeRecord, { ...record, id: 7, payload: {} }];
    const rows = [...envelopeRows({ envelopes: list })];
    expect(rows.map((r) => r.id)).toEqual([first.id, 7]);
    expect(rows[0]).toEqual(first);
    expect(read).toHaveBeenCalledTimes(1); // the spread of the third record, made above, read it once
  });
});
