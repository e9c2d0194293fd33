/**
 * A hosted group coordinator's write to __consumer_offsets that timed out waiting for the high
 * watermark: the clients are answered with an error, but CoordinatorRuntime's OperationTimeout fails
 * only the answer — the records stay in the broker's log and the coordinator keeps them in memory,
 * even when (the stored regression) another broker has become the partition's leader meanwhile. The
 * narration says so in English and Korean, and does not claim "the groups keep" a write no client reads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration/narrate';
import { translateNote } from '../../src/sim/narration/notes';
import { runScenario } from '../../src/sim/run';

const scenarioFile = join(__dirname, '../properties/regressions/deposed-group-coordinator-keeps-timed-out-write.json');

describe('narration of a hosted group coordinator’s timed-out or failed write', () => {
  it('the deposed coordinator’s timed-out write: the clients hear it failed, the coordinator keeps it until it unloads', () => {
    const trace = runScenario(JSON.parse(readFileSync(scenarioFile, 'utf8')));
    const i = trace.steps.findIndex((s) =>
      (s.facts as readonly { text?: string }[]).some((f) => f.text?.startsWith('write to __consumer_offsets-2 timed out')),
    );
    expect(i).toBeGreaterThan(0);
    const en = narrate(trace, i, 'en');
    expect(en).toContain('the clients hear it failed');
    expect(en).toContain('until it unloads the partition');
    expect(en).not.toContain('the groups keep');
    const ko = narrate(trace, i, 'ko');
    expect(ko).toContain('__consumer_offsets-2에 쓴 기록이 HW(하이 워터마크)를 기다리다 시간이 다 되었습니다');
    expect(ko).toContain('클라이언트는 실패했다는 답을 받지만');
    expect(ko).not.toMatch(/timed out|the clients/);
  });

  it('a failed write leaves the groups as they were, in Korean too', () => {
    const en = 'write to __consumer_offsets-7 failed: NOT_LEADER_OR_FOLLOWER → NOT_COORDINATOR; the groups stay as they were';
    expect(translateNote(en, 'ko')).toBe(
      '__consumer_offsets-7에 쓰지 못했습니다: NOT_LEADER_OR_FOLLOWER → NOT_COORDINATOR. 그룹은 그대로입니다.',
    );
    const epoch = 'write to __consumer_offsets-7 failed: the coordinator epoch changed → NOT_COORDINATOR; the groups stay as they were';
    expect(translateNote(epoch, 'ko')).toBe(
      '__consumer_offsets-7에 쓰지 못했습니다: 코디네이터 epoch가 바뀌었습니다 → NOT_COORDINATOR. 그룹은 그대로입니다.',
    );
  });
});
