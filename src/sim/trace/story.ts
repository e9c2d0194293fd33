/**
 * Which steps of a run tell its story, and which are background: a heartbeat, an idle fetch and its
 * empty answer, a poll that found nothing. `lost-ack-idempotent` takes 446 steps for one record,
 * 419 of them background; playback skips those by default, and the scrubber marks where the story
 * happens (faults, errors, markers, appends, deliveries, side effects).
 *
 * Read from the trace only: a step is background when it delivers a background envelope (or is a
 * timer or a local call), records no fact, meets no fault, and sends nothing but background
 * envelopes. Nothing here is per preset.
 */
import type { Trace } from '../run';
import type { Fact } from './facts';

/** 1 for a step that tells the story, 0 for background; indexed like trace.steps. */
export function storySteps(trace: Pick<Trace, 'steps' | 'envelopes'>): Uint8Array {
  const out = new Uint8Array(trace.steps.length);
  trace.steps.forEach((s, i) => {
    const quiet = s.facts.length === 0 && s.faults.length === 0 && s.sent.every((id) => trace.envelopes[id]?.background === true);
    const idle =
      quiet &&
      (s.kind === 'timer' ||
        s.kind === 'call' ||
        (s.kind === 'deliver' && s.envelope !== null && trace.envelopes[s.envelope]?.background === true));
    out[i] = idle ? 0 : 1;
  });
  return out;
}

/**
 * The position after `position` (steps taken) whose step tells the story: the smallest q > position
 * with story[q − 1] set, else the end of the run.
 */
export function nextStoryPosition(story: Uint8Array, position: number): number {
  for (let q = Math.max(0, position) + 1; q <= story.length; q++) if (story[q - 1]) return q;
  return story.length;
}

/** The position before `position` whose step tells the story, else the start of the run (0). */
export function previousStoryPosition(story: Uint8Array, position: number): number {
  for (let q = Math.min(story.length, position) - 1; q >= 1; q--) if (story[q - 1]) return q;
  return 0;
}

export type StoryMarkKind = 'fault' | 'error' | 'marker' | 'append' | 'delivery' | 'effect';

/** Where a run's story happens, step by step, for the scrubber: one kind per step (the first that applies). */
export function storyMarks(steps: Trace['steps']): { readonly i: number; readonly kind: StoryMarkKind }[] {
  const out: { i: number; kind: StoryMarkKind }[] = [];
  for (const s of steps) {
    const facts = s.facts as readonly Fact[];
    const kind: StoryMarkKind | null =
      s.faults.length > 0 || s.kind === 'fault'
        ? 'fault'
        : facts.some((f) => f.kind === 'clientError' || f.kind === 'rejected')
          ? 'error'
          : facts.some((f) => f.kind === 'append' && f.control !== null)
            ? 'marker'
            : facts.some((f) => f.kind === 'append')
              ? 'append'
              : facts.some((f) => f.kind === 'delivered')
                ? 'delivery'
                : facts.some((f) => f.kind === 'sideEffect' || f.kind === 'processed')
                  ? 'effect'
                  : null;
    if (kind) out.push({ i: s.i, kind });
  }
  return out;
}
