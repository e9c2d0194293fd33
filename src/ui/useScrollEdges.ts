/**
 * A row of controls that scrolls sideways (on a phone: the header's buttons, the playback bar's row
 * of the switch, the speed and the jumps) says that more of it lies past an edge: the row carries
 * `data-more-start` while something is hidden left of it and `data-more-end` while something is
 * hidden right of it, and styles.css fades that edge out. Nothing is hidden from a keyboard or a
 * screen reader: the attributes only change how the edges look. They follow the row's scroll, a
 * resize of the row (the screen turned, the window widened) and of anything in it (a language
 * switch, a count that grows); a row that fits, or does not scroll (a wide screen), has neither.
 */
import { type RefObject, useEffect, useRef } from 'react';

/** A pixel's slack: a scroll position that rounds to the edge counts as at the edge. */
const SLACK_PX = 1;

/** Sets the row's edge attributes from its scroll position. */
function markScrollEdges(row: HTMLElement): void {
  const hidden = row.scrollWidth - row.clientWidth;
  const start = hidden > SLACK_PX && row.scrollLeft > SLACK_PX;
  const end = hidden > SLACK_PX && row.scrollLeft < hidden - SLACK_PX;
  row.toggleAttribute('data-more-start', start);
  row.toggleAttribute('data-more-end', end);
}

export function useScrollEdges<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T | null>(null);
  useEffect(() => {
    const row = ref.current;
    if (!row) return;
    const update = () => markScrollEdges(row);
    const resized = new ResizeObserver(update);
    const observeChildren = () => {
      resized.disconnect();
      resized.observe(row);
      for (const child of row.children) resized.observe(child);
    };
    // controls added or removed (a button that appears with a dump open, a language's words)
    const changed = new MutationObserver(() => {
      observeChildren();
      update();
    });
    observeChildren();
    changed.observe(row, { childList: true });
    row.addEventListener('scroll', update, { passive: true });
    update();
    return () => {
      row.removeEventListener('scroll', update);
      resized.disconnect();
      changed.disconnect();
    };
  }, []);
  return ref;
}
