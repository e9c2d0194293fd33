/**
 * The scrubber over the whole run: a range input (keyboard and pointer) that reaches every step,
 * with marks under it where the story happens — faults, errors, transaction markers, appends,
 * deliveries and side effects (sim/trace/story.ts) — so the idle stretches between them show as
 * gaps. Seeking is instant: the engine restores the nearest checkpoint and replays a few hundred
 * steps at most.
 */
import { useId, useMemo } from 'react';
import { groupDigits, storyMarks } from '../../sim/views';
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { useStrings } from '../i18n';

/** At most this many marks per kind: a long run stays cheap to draw. */
const MAX_MARKS = 400;

export function Scrubber() {
  const t = useStrings();
  const hintId = useId();
  const step = useSim((s) => s.step);
  const trace = useSim((s) => s.trace);
  const total = trace?.steps.length ?? 0;
  const time = useSim((s) => s.view?.time ?? 0);
  const marks = useMemo(() => {
    if (!trace) return [];
    const all = storyMarks(trace.steps);
    const byKind = new Map<string, typeof all>();
    for (const m of all) byKind.set(m.kind, [...(byKind.get(m.kind) ?? []), m]);
    return [...byKind.values()].flatMap((list) =>
      list.filter((_, k) => list.length <= MAX_MARKS || k % Math.ceil(list.length / MAX_MARKS) === 0),
    );
  }, [trace]);
  return (
    <div className="scrubber">
      <input
        type="range"
        min={0}
        max={total}
        step={1}
        value={step}
        aria-label={t.scrubber}
        aria-describedby={hintId}
        aria-valuetext={`${t.stepOf(step, total)}, ${groupDigits(time)} ms`}
        onChange={(e) => {
          simStore.getState().setPlaying(false);
          simStore.getState().seek(Number(e.target.value));
        }}
      />
      <p id={hintId} className="visually-hidden">
        {t.storyMarks}
      </p>
      <div className="scrubber-ticks" aria-hidden="true" data-testid="story-marks">
        {total > 0 &&
          marks.map((m) => (
            <span
              key={`${m.kind}-${m.i}`}
              className={`scrubber-tick ${m.kind}`}
              data-step={m.i}
              style={{ left: `${((m.i + 1) / total) * 100}%` }}
            />
          ))}
      </div>
    </div>
  );
}
