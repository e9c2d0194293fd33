/** `npm run sim -- <preset> --chart <actorId>`: the actor's chart (and each instance's) as Mermaid, as of --until. */
import { describe, expect, it } from 'vitest';
import { simCli } from '../fixtures/simCli';

describe('--chart', () => {
  it("prints the producer's statechart with its state at the end of zombie-fencing, and at an earlier step with --until", () => {
    const end = simCli('zombie-fencing', '--chart', 'instance-a.producer');
    expect(end.code).toBe(0);
    expect(end.out.split('\n')[0]).toMatch(
      /^%% instance-a\.producer \(producer\) in state FATAL_ERROR; last transition at step \d+: .+ → FATAL_ERROR$/,
    );
    expect(end.out).toContain('stateDiagram-v2');
    expect(end.out).toContain('  class FATAL_ERROR current');
    const early = simCli('zombie-fencing', '--chart', 'instance-a.producer', '--until', '3');
    expect(early.out).not.toContain('class FATAL_ERROR current');
  });

  it('names the actors when the id is unknown, and exits 2', () => {
    const r = simCli('zombie-fencing', '--chart', 'nobody');
    expect(r.code).toBe(2);
    expect(r.out).toContain('no actor "nobody"');
    expect(r.out).toContain('txn-coordinator');
  });
});
