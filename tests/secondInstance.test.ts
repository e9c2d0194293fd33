/**
 * "Start a second instance with the same transactional.id" keeps its promise or explains itself.
 * Started while the first instance's transaction is open, the copy's InitProducerId fences the
 * epoch and aborts that transaction, and the first instance is fenced on its next call. Started
 * after the first committed and finished, nothing is aborted or fenced and the copy re-sends the same
 * events as new records: the narration, the verdict and the hint say exactly that, in English and
 * Korean.
 */
import { describe, expect, it } from 'vitest';
import type { TopicFinding } from '../src/sim/checks/verdict';
import { findingText } from '../src/sim/checks/verdictText';
import { narrate } from '../src/sim/narration';
import { runScenario, type Trace } from '../src/sim/run';
import { secondInstanceOutlook, startSecondInstance } from '../src/sim/scenario/edits';
import type { Scenario } from '../src/sim/scenario/schema';
import type { Fact } from '../src/sim/trace/facts';
import { summarize } from '../src/sim/trace/summary';
import { INJECT_STRINGS } from '../src/ui/inject/strings';

/** One transaction of one event, and a read_committed reader. */
const scenario = (protocol: 1 | 2): Scenario => ({
  version: 1,
  seed: 3,
  cluster: { 'transaction.version': protocol },
  topics: [{ name: 'out' }],
  clients: [
    {
      id: 'app',
      type: 'producer',
      config: { 'transactional.id': 'tx-1', 'transaction.timeout.ms': 5000 },
      script: [
        { op: 'beginTransaction' },
        { op: 'send', topic: 'out', key: 'a', value: '1', headers: { event_id: 'e1' } },
        { op: 'commitTransaction', delayMs: 100 },
      ],
    },
    {
      id: 'reader',
      type: 'consumer',
      config: { 'group.id': 'g', 'isolation.level': 'read_committed', 'auto.offset.reset': 'earliest' },
      topics: ['out'],
      processing: { mode: 'at-least-once' },
    },
  ],
});

function withSecond(s: Scenario, step: (t: Trace) => number): { before: Trace; at: number; after: Trace } {
  const before = runScenario(s);
  const at = step(before);
  const outcome = startSecondInstance(s, { trace: before, step: at, client: 'app' });
  if (!outcome.ok) throw new Error(outcome.reason);
  return { before, at, after: runScenario(outcome.scenario) };
}

const facts = (t: Trace) => t.steps.flatMap((s) => (s.facts as Fact[]).map((f) => ({ step: s.i, fact: f })));
const openTxn = (t: Trace) => t.steps.findIndex((x) => x.t >= 50);

describe.each([1, 2] as const)('a second instance, transaction protocol v%i', (protocol) => {
  it('during an open transaction: the epoch is fenced, the transaction aborted, the first instance fenced — no duplicate', () => {
    const { before, at, after } = withSecond(scenario(protocol), openTxn);
    expect(secondInstanceOutlook({ trace: before, step: at, client: 'app' })).toBe('aborts-open');
    expect(facts(after).some(({ fact }) => fact.kind === 'txnState' && fact.to === 'PrepareEpochFence')).toBe(true);
    const fenced = facts(after).find(({ fact }) => fact.kind === 'clientError' && fact.client === 'app' && fact.fatal);
    expect(fenced?.fact).toMatchObject({ kind: 'clientError', during: 'EndTxn(COMMIT)' });
    const v = summarize(after).verdict;
    const log = v.layers.find((f) => f.layer === 'log' && f.subject === 'out') as TopicFinding;
    expect(log.status).toBe('once');
    expect(log.notable[0]?.copies.map((c) => c.state)).toEqual(['aborted', 'committed']);
    expect(v.layers.find((f) => f.layer === 'delivery' && f.subject === 'reader')?.status).toBe('once');
  });

  it('after the first committed and finished: nothing fenced, the same events again as new records', () => {
    const { before, at, after } = withSecond(scenario(protocol), (t) => t.steps.length);
    expect(secondInstanceOutlook({ trace: before, step: at, client: 'app' })).toBe('duplicates');
    // nothing is aborted and nobody is fenced
    expect(
      facts(after).some(({ fact }) => fact.kind === 'txnState' && (fact.to === 'PrepareEpochFence' || fact.to === 'PrepareAbort')),
    ).toBe(false);
    expect(facts(after).some(({ fact }) => fact.kind === 'clientError' && fact.client === 'app')).toBe(false);
    // the verdict: a business duplicate that transactional.id does not prevent
    const v = summarize(after).verdict;
    const log = v.layers.find((f) => f.layer === 'log' && f.subject === 'out') as TopicFinding;
    expect(log).toMatchObject({ status: 'more-than-once', eventIds: ['e1'] });
    expect(log.sentence).toContain(
      'written by app and app-2, both with transactional.id tx-1: a business duplicate that transactional.id does not prevent',
    );
    expect(findingText(log, 'ko')).toContain('transactional.id가 막지 못하는 비즈니스 중복');
    expect(v.layers.find((f) => f.layer === 'delivery' && f.subject === 'reader')).toMatchObject({
      status: 'more-than-once',
      eventIds: ['e1'],
    });
    // the narration: the bump fences nothing, and the second append is a new record
    const bump = facts(after).find(({ step, fact }) => step >= at && fact.kind === 'txnState' && fact.to === 'Empty');
    const again = facts(after).find(({ step, fact }) => step >= at && fact.kind === 'append' && fact.control === null);
    if (!bump || !again) throw new Error('no epoch bump or second append');
    expect(narrate(after, bump.step, 'en')).toContain(
      'no transaction was open, so nothing is aborted: app makes no further call with its old epoch, so nothing is fenced',
    );
    expect(narrate(after, bump.step, 'ko')).toContain('펜싱되는 것은 없습니다');
    expect(narrate(after, again.step, 'en')).toContain('written by app with the same transactional.id tx-1');
    expect(narrate(after, again.step, 'en')).toContain('a business duplicate that transactional.id does not prevent');
    expect(narrate(after, again.step, 'ko')).toContain('transactional.id가 막지 못하는 비즈니스 중복');
  });
});

describe('what the hint promises, from the state at the chosen step', () => {
  it('between initTransactions and the first send: nothing open, the first instance fenced on its next call', () => {
    const s = scenario(2);
    const t = runScenario(s);
    // initTransactions() has completed but the transaction has no partition yet: the coordinator has nothing open
    const at = t.steps.findIndex((x) => x.facts.some((f) => (f as Fact).kind === 'producerId')) + 1;
    expect(secondInstanceOutlook({ trace: t, step: at, client: 'app' })).toBe('fences-next-call');
    expect(secondInstanceOutlook({ trace: t, step: openTxn(t), client: 'app' })).toBe('aborts-open');
    expect(secondInstanceOutlook({ trace: t, step: 3, client: 'reader' })).toBeNull();
  });

  it('promises fencing only when it can happen, in both languages', () => {
    for (const lang of ['en', 'ko'] as const) {
      const hint = INJECT_STRINGS[lang].secondInstanceHint;
      expect(hint('tx-1', 'aborts-open')).toMatch(lang === 'en' ? /aborts it, and the first instance is fenced/ : /코디네이터가 취소하고/);
      expect(hint('tx-1', 'duplicates')).toMatch(
        lang === 'en' ? /nothing is aborted and nothing is fenced/ : /취소되는 것도 펜싱되는 것도 없습니다/,
      );
      expect(hint('tx-1', 'duplicates')).toMatch(lang === 'en' ? /transactional.id does not prevent/ : /transactional.id가 막지 못하는/);
      expect(hint('tx-1', 'fences-next-call')).toMatch(lang === 'en' ? /nothing is aborted/ : /취소되는 것은 없습니다/);
      expect(hint('tx-1', null)).toMatch(lang === 'en' ? /If a transaction of tx-1 is open/ : /열려 있으면/);
    }
  });
});
