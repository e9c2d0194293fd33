/** The fault space is enumerated from the run: points, instants and envelopes, collapsed before anything runs. */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { CRASH_RESTART_MS, enumerateFaults } from '../../src/sim/search/faultSpace';
import { prepareBase, runSchedule } from '../../src/sim/search/runner';

const base = prepareBase(findPreset('at-least-once-consumer-crash')?.scenario);
const root = runSchedule(base, []);

describe('the fault space of a run', () => {
  it('takes the scripted failures out of the configuration, and keeps the workload', () => {
    expect(findPreset('at-least-once-consumer-crash')?.scenario.faults?.length).toBe(1);
    expect(base.fixedFaults).toEqual([]);
    const compaction = prepareBase(findPreset('compaction-is-not-dedup')?.scenario);
    expect(compaction.fixedFaults.map((f) => f.type)).toEqual(['runCleaner']);
  });

  it('lists the named points the application passes, with the record, as crash and pause faults', () => {
    const points = enumerateFaults(root, -1, { timing: 'points', kinds: ['crash'] });
    const names = points.map((c) => ('point' in c.fault ? `${c.fault.point}@${JSON.stringify(c.fault.where)}` : ''));
    expect(names).toContain('afterProcess@{"topic":"orders","partition":0,"offset":1}');
    expect(names).toContain('beforeCommit@{"topic":"orders","partition":0,"offset":2}');
    for (const c of points) {
      expect(c.fault).toMatchObject({ type: 'crash', target: 'billing', durationMs: CRASH_RESTART_MS });
      // every point the run passed is a step of the run, in order
      expect(c.step).toBeGreaterThanOrEqual(0);
      expect(c.step).toBeLessThan(root.steps);
    }
    expect(points.map((c) => c.step)).toEqual([...points.map((c) => c.step)].sort((a, b) => a - b));
  });

  it('one timed fault per process and instant, only while the process is up', () => {
    const timed = enumerateFaults(root, -1, { kinds: ['crash'] }).filter((c) => 'at' in c.fault && c.fault.at !== undefined);
    const keys = timed.map((c) => `${c.process}@${c.time}`);
    expect(new Set(keys).size).toBe(keys.length);
    const instants = new Set(root.trace.steps.filter((s) => s.actor.startsWith('billing') && s.t > 0).map((s) => s.t));
    expect(timed.filter((c) => c.process === 'billing').length).toBe(instants.size);
  });

  it('names envelopes as a fault does: RPC, sender, receiver and occurrence; background traffic only when asked', () => {
    const envs = enumerateFaults(root, -1, { kinds: ['drop'] });
    const produce = envs.filter((c) => 'rpc' in c.fault && c.fault.rpc === 'Produce');
    expect(produce[0]?.fault).toEqual({ type: 'drop', rpc: 'Produce', from: 'orders-service.producer', to: 'broker-0' });
    const withBackground = enumerateFaults(root, -1, { kinds: ['drop'], background: true });
    expect(withBackground.length).toBeGreaterThan(envs.length);
    const delay = enumerateFaults(root, -1, { kinds: ['delay'] })[0];
    expect(delay?.fault).toMatchObject({ type: 'delay', delayMs: 31000 });
  });

  it('lists only faults firing after a given step (how a schedule is extended)', () => {
    const all = enumerateFaults(root);
    const mid = all[Math.floor(all.length / 2)]?.step ?? 0;
    const later = enumerateFaults(root, mid);
    expect(later.length).toBeGreaterThan(0);
    expect(later.length).toBeLessThan(all.length);
    for (const c of later) expect(c.step).toBeGreaterThan(mid);
  });

  it('a point fault it lists fires where the run passed the point', () => {
    const c = enumerateFaults(root, -1, { timing: 'points', kinds: ['crash'] }).find(
      (x) => 'point' in x.fault && x.fault.point === 'afterProcess',
    );
    if (!c) throw new Error('no afterProcess point');
    const run = runSchedule(base, [c.fault]);
    expect(run.trace.steps.at(c.step)?.faults.length).toBe(1);
    expect(run.trace.steps.slice(0, c.step).every((s) => s.faults.length === 0)).toBe(true);
  });
});
