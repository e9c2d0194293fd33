/**
 * Playback: to the start, previous notable step, back, play/pause, forward, next notable step, to
 * the end; the scrubber; where we are; the speed; and jumps to the next/previous fault, error or
 * transaction marker. Every control is a real button or input, and has a keyboard shortcut.
 */

import { useMemo } from 'react';
import { groupDigits } from '../../sim/views';
import { simStore, storyOf } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { useStrings } from '../i18n';
import { useScrollEdges } from '../useScrollEdges';
import { allTargets, JUMP_KINDS, type JumpTargets, nextPosition, previousPosition } from './jumps';
import { Scrubber } from './Scrubber';
import { SPEEDS } from './shortcuts';
import { playbackActions, Transport } from './Transport';

/**
 * The switch that hides background steps from playing and stepping, with how many there are: a
 * switch (role="switch", aria-checked) whose words name the state it turns on, "Hide background
 * steps (853)", and whose track shows whether it is on.
 */
function SkipIdleToggle() {
  const t = useStrings();
  const skip = useSim((s) => s.skipIdle);
  const trace = useSim((s) => s.trace);
  const idle = useMemo(() => (trace ? storyOf(trace).reduce((n, x) => n + (x ? 0 : 1), 0) : 0), [trace]);
  const total = trace?.steps.length ?? 0;
  return (
    <button
      type="button"
      role="switch"
      className="skip-idle"
      aria-checked={skip}
      data-testid="skip-idle"
      title={t.skipIdleHint(idle, total)}
      onClick={() => simStore.getState().setSkipIdle(!skip)}
    >
      <span className="switch-track" aria-hidden="true">
        <span className="switch-knob" />
      </span>
      <span className="switch-label">
        {t.skipIdle(idle)} (<span className="count">{groupDigits(idle)}</span>)
      </span>
    </button>
  );
}

export function PlaybackBar({ targets }: { readonly targets: JumpTargets }) {
  const t = useStrings();
  const step = useSim((s) => s.step);
  const total = useSim((s) => s.trace?.steps.length ?? 0);
  const playing = useSim((s) => s.playing);
  const speed = useSim((s) => s.speed);
  const time = useSim((s) => s.view?.time ?? 0);
  const endTime = useSim((s) => s.trace?.endTime ?? 0);
  const hash = useSim((s) => s.trace?.traceHash ?? '');
  const notable = allTargets(targets);
  const prev = previousPosition(notable, step);
  const next = nextPosition(notable, step);
  // on a phone the switch, the speed and the jumps are one row that scrolls sideways: its edges fade while more lies past them
  const moreRow = useScrollEdges<HTMLDivElement>();
  const actions = playbackActions(
    () => simStore.getState(),
    () => total,
  );
  return (
    <section className="playback" aria-label={t.playback}>
      <Transport t={t} step={step} total={total} playing={playing} {...actions} notable={{ prev, next }} shortcuts />
      <Scrubber />
      <p className="position">
        {/* as wide as the run's last position says, so the bar's controls do not move (and wrap, and
            resize the scrubber under a dragging pointer) as the numbers grow */}
        <span className="step-counter-box">
          <span className="step-counter" data-testid="step-counter">
            {t.stepOf(step, total)} · {groupDigits(time)} ms
          </span>
          <span className="step-counter-sizer" aria-hidden="true">
            {t.stepOf(total, total)} · {groupDigits(Math.max(time, endTime))} ms
          </span>
        </span>
        <span className="trace-hash" data-testid="trace-hash" data-trace-hash={hash} title="traceHash">
          {hash}
        </span>
      </p>
      {/* the switch, the speed and the jumps: in the bar's row on a wide screen (display: contents),
          one row that scrolls sideways on a phone, so the bar stays short enough to keep on screen */}
      <div className="playback-more" ref={moreRow}>
        <SkipIdleToggle />
        <label className="inline-control">
          <span>{t.speed}</span>
          <select value={SPEEDS.includes(speed) ? speed : ''} onChange={(e) => simStore.getState().setSpeed(Number(e.target.value))}>
            {!SPEEDS.includes(speed) && <option value="">{speed}</option>}
            {SPEEDS.map((v) => (
              <option key={v} value={v}>
                {v} {v === 1 ? t.stepPerSecond : t.stepsPerSecond}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="jumps">
          <legend>{t.jumpTo}</legend>
          {JUMP_KINDS.map((kind) => {
            const p = previousPosition(targets[kind], step);
            const n = nextPosition(targets[kind], step);
            return (
              <span key={kind} className={`jump ${kind}`}>
                <button type="button" onClick={() => actions.seekTo(p)} disabled={p === null} aria-label={`${t.previous} ${t[kind]}`}>
                  ‹
                </button>
                <span className="jump-label">
                  {t[kind]} <span className="count">{targets[kind].length}</span>
                </span>
                <button type="button" onClick={() => actions.seekTo(n)} disabled={n === null} aria-label={`${t.next} ${t[kind]}`}>
                  ›
                </button>
              </span>
            );
          })}
        </fieldset>
      </div>
    </section>
  );
}
