import { describe, expect, it } from 'vitest';
import { readableState, readableTransition, regionsOf } from './stateText';

const stable = 'running.membership.STABLE|running.fetching.ASSIGNED.IDLE';
const inFlight = 'running.membership.STABLE|running.fetching.ASSIGNED.FETCH_IN_FLIGHT';

describe('state text', () => {
  it('reads a parallel state as each region and its state', () => {
    expect(regionsOf(stable)).toEqual([
      { region: 'membership', value: 'STABLE' },
      { region: 'fetching', value: 'ASSIGNED.IDLE' },
    ]);
    expect(readableState(stable)).toBe('membership STABLE, fetching ASSIGNED.IDLE');
  });

  it('leaves a state without regions as it is', () => {
    expect(regionsOf('live.READY')).toBe(null);
    expect(readableState('running.polling')).toBe('running.polling');
  });

  it('tells a transition inside a parallel state by the regions it changed', () => {
    expect(readableTransition(stable, inFlight)).toEqual({ before: 'fetching ASSIGNED.IDLE', after: 'fetching ASSIGNED.FETCH_IN_FLIGHT' });
    expect(readableTransition('created', stable)).toEqual({ before: 'created', after: 'membership STABLE, fetching ASSIGNED.IDLE' });
  });
});
