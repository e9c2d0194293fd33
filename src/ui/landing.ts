/**
 * What the page prepares once per run before it shows it (the store's `runTiming.landing`, set by
 * src/page.tsx): each piece a panel reads over the whole trace, made in a task of its own and kept
 * per trace, so the first render of the run's workspace finds it made and landing a run makes no long
 * task. Each piece is the panel's own cached function; a panel not given it computes it as before.
 */
import { eventlessTopicsOf } from '../sim/views';
import { type LandingWork, storyOf } from '../store/simStore';
import { jumpTargetsOf } from './playback/jumps';
import { runExtentsOf } from './timeline/laneExtents';
import { mscModelOf } from './timeline/mscModel';
import { counterStepsAt } from './verdict/counterSteps';

export const PAGE_LANDING: readonly LandingWork[] = [
  // the playback bar: the story marks (stepping skips background steps) and the jump targets
  (trace) => storyOf(trace),
  (trace) => jumpTargetsOf(trace),
  // the timeline: the lanes' extents over the run, and the message diagram
  (trace) => runExtentsOf(trace),
  (trace) => mscModelOf(trace),
  // the verdict: which step made each counter
  (trace) => counterStepsAt(trace, 0, eventlessTopicsOf(trace)),
  // the cost panel (its own chunk, loaded after the first paint as the panel is)
  (trace) => import('./cost/CostPanel').then((m) => m.traceCost(trace)),
];
