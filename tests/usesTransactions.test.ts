/**
 * usesTransactions decides from the scenario whether its run uses transactions (and so whether the
 * transaction protocol version means anything for it): a transactional.id on some producer — a
 * consumer application's exactly-once producer included — or an exactly_once_v2 Streams application.
 * Held to what every preset's run does: a transactional producer asks for its transactional.id's
 * producerId (InitProducerId with a transactionalId).
 */
import { describe, expect, it } from 'vitest';
import { findPreset, PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { usesTransactions } from '../src/sim/scenario/transactions';
import { validateScenario } from '../src/sim/scenario/validate';

const resolved = (id: string) => {
  const v = validateScenario(findPreset(id)?.scenario);
  if (!v.ok) throw new Error(id);
  return v.resolved;
};

describe('usesTransactions', () => {
  it('says yes for a transactional.id or exactly_once_v2, and no otherwise', () => {
    expect(usesTransactions(resolved('opening-story'))).toBe(false);
    expect(usesTransactions(resolved('min-insync-blocks-writes'))).toBe(false);
    expect(usesTransactions(resolved('streams-alos-crash-duplicate'))).toBe(false);
    // a producer client's transactional.id
    expect(usesTransactions(resolved('zombie-fencing'))).toBe(true);
    // a consumer application in exactly-once mode: its producer gets <id>-txn
    expect(usesTransactions(resolved('ctp-exactly-once-crash'))).toBe(true);
    // Streams with processing.guarantee=exactly_once_v2
    expect(usesTransactions(resolved('streams-eos-crash-restore'))).toBe(true);
  });

  it.each(PRESETS.map((p) => [p.id, p] as const))('%s: it agrees with the run (InitProducerId for a transactional.id)', (id, preset) => {
    const trace = runScenario(preset.scenario);
    const transactional = trace.envelopes.some((e) => e.rpc === 'InitProducerId' && typeof e.payload.transactionalId === 'string');
    expect(usesTransactions(resolved(id))).toBe(transactional);
  });
});
