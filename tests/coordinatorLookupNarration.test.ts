/**
 * The consumer's coordinatorLookupRetry timer (ensureCoordinatorReady's sleep after a failed lookup,
 * consumer/pollLookup.ts) read as "timer coordinatorLookupRetry fired": it now says what came due and
 * what follows, in English and Korean.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../src/sim/narration/narrate';
import { runScenario, type Trace } from '../src/sim/run';
import { coordinatorDead } from './fixtures/hostedGroup';

/** The audit's coordinator crash (broker-1, the reader's group coordinator, down 3600–23600 ms), and `more` faults. */
const coordDead = (more: unknown[] = []) => coordinatorDead([], more);

/** The first coordinatorLookupRetry step that sent `rpc`. */
function firstRetrySending(trace: Trace, rpc: string): number {
  for (let i = 0; i < trace.steps.length; i++) {
    const s = trace.steps.at(i);
    if (s?.kind === 'timer' && s.label === 'coordinatorLookupRetry' && s.sent.some((id) => trace.envelopes.at(id)?.rpc === rpc)) return i;
  }
  throw new Error(`no coordinatorLookupRetry sending ${rpc}`);
}

describe('coordinatorLookupRetry in words', () => {
  it('the backoff over: FindCoordinator again', () => {
    const trace = runScenario(coordDead());
    const step = firstRetrySending(trace, 'FindCoordinator');
    expect(narrate(trace, step, 'en')).toBe(
      "The backoff of reader's consumer after a failed coordinator lookup has passed: it asks for the group coordinator again and sends FindCoordinator to broker-0.",
    );
    expect(narrate(trace, step, 'ko')).toBe(
      'reader 컨슈머의 코디네이터 조회 실패 뒤 backoff가 지났습니다. 그룹 코디네이터를 다시 찾습니다. broker-0에 FindCoordinator를 보냅니다.',
    );
  });

  it('inside poll(), after a lost FindCoordinator: a metadata update first (awaitMetadataUpdate)', () => {
    // broker-0, which the lookups go to, crashes with a FindCoordinator in flight (sent at 6108)
    const trace = runScenario(coordDead([{ type: 'crash', target: 'broker-0', at: 6109, durationMs: 5000 }]));
    const step = firstRetrySending(trace, 'Metadata');
    expect(narrate(trace, step, 'en')).toContain(
      "The backoff of reader's consumer after a failed coordinator lookup has passed: inside poll(), commitSync() or close() it first waits for fresh metadata (awaitMetadataUpdate) and sends Metadata to",
    );
    expect(narrate(trace, step, 'ko')).toContain(
      'poll(), commitSync(), close() 안에서 먼저 메타데이터 갱신을 기다립니다(awaitMetadataUpdate)',
    );
    for (let i = 0; i < trace.steps.length; i++)
      if (trace.steps.at(i)?.label === 'coordinatorLookupRetry')
        expect(narrate(trace, i, 'en')).not.toContain('timer coordinatorLookupRetry fired');
  });
});
