/**
 * An English step sentence starts with a capital when its first word is an English word: "Group
 * billing rebalanced …", "The transaction coordinator …", "Transaction of …" — an identifier
 * ("broker-0", "linger.ms", "send()") stays as it is written.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../src/sim/narration';
import { sentence } from '../src/sim/narration/language';
import { PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';

describe('English step sentences start with a capital', () => {
  it('group, controller and transaction are words, not identifiers', () => {
    expect(sentence('en', 'group billing rebalanced to generation 1')).toBe('Group billing rebalanced to generation 1.');
    expect(sentence('en', "controller's connection to broker-1 is lost")).toBe("Controller's connection to broker-1 is lost.");
    expect(sentence('en', 'transaction of tx has been open 61000 ms')).toBe('Transaction of tx has been open 61000 ms.');
    expect(sentence('en', 'groupMetadata() completed')).toBe('groupMetadata() completed.');
    expect(sentence('en', 'broker-0 appended a record')).toBe('broker-0 appended a record.');
  });

  it('transaction-timeout: no step begins with a lower-case "group" or "transaction"', () => {
    const p = PRESETS.find((x) => x.id === 'transaction-timeout');
    if (!p) throw new Error('no preset');
    const t = runScenario(p.scenario);
    const texts = t.steps.map((s) => narrate(t, s.i, 'en'));
    expect(texts.filter((x) => /^(group|transaction) /.test(x))).toEqual([]);
    expect(texts.some((x) => x.startsWith('Group committed-reader starts rebalancing'))).toBe(true);
    expect(texts.some((x) => x.startsWith('Transaction of slow-service-1 has been open'))).toBe(true);
  });
});
