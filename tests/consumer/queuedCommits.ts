/** The queued-commit tests' member: generation 2, t-0 consumed to 5, an auto-commit in flight and a commit queued behind it. */
import { commit } from '../../src/sim/consumer/commits';
import type { ConsumerContext, Draft } from '../../src/sim/consumer/consumerContext';
import { context, run, tp0 } from './fixture';

/** Member c-0 of generation 2, assigned t-0 at position 5. */
export const generation2 = { memberId: 'c-0', generationId: 2, assignment: [tp0], positions: { 't-0': 5 } };

/** An auto-commit of offset 5 in flight (generation 2), and `queued` behind it. */
export function autoThen(queued: (d: Draft, out: Parameters<typeof commit>[1]) => void): ConsumerContext {
  return run(context({}, 1, generation2), (d, out) => {
    commit(d, out, [{ ...tp0, offset: 5 }], null, 'auto', 0);
    queued(d, out);
  }).d;
}
