/**
 * The scrubber over the whole run: a range input (keyboard and pointer), with ticks under it where
 * faults, errors and transaction markers happen. Seeking is instant: the engine restores the nearest
 * checkpoint and replays at most a few hundred steps.
 */
import { simStore } from '../../store/simStore';
import { useStrings } from '../i18n';
import { useSim } from '../useSim';
import type { JumpKind, JumpTargets } from './jumps';

const TICK_KINDS: readonly JumpKind[] = ['marker', 'error', 'fault'];

export function Scrubber({ targets }: { readonly targets: JumpTargets }) {
  const t = useStrings();
  const step = useSim((s) => s.step);
  const total = useSim((s) => s.trace?.steps.length ?? 0);
  const time = useSim((s) => s.view?.time ?? 0);
  return (
    <div className="scrubber">
      <input
        type="range"
        min={0}
        max={total}
        step={1}
        value={step}
        aria-label={t.scrubber}
        aria-valuetext={`${t.stepOf(step, total)}, ${time.toLocaleString('en')} ms`}
        onChange={(e) => {
          simStore.getState().setPlaying(false);
          simStore.getState().seek(Number(e.target.value));
        }}
      />
      <div className="scrubber-ticks" aria-hidden="true">
        {total > 0 &&
          TICK_KINDS.flatMap((kind) =>
            // a tick per target, thinned to at most 400 per kind so a long run stays cheap to draw
            targets[kind]
              .filter((_, k, all) => all.length <= 400 || k % Math.ceil(all.length / 400) === 0)
              .map((i) => (
                <span key={`${kind}-${i}`} className={`scrubber-tick ${kind}`} style={{ left: `${((i + 1) / total) * 100}%` }} />
              )),
          )}
      </div>
    </div>
  );
}
