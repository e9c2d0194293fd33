/**
 * A new selection brings its details into view. At desktop widths the side column scrolls on its own
 * and the details sit below the verdict and the cost, so a click on a process, a record or a message
 * could change nothing the person sees. When the details' top is outside the upper part of its
 * column, the column (only it, not the page) scrolls to put it near the top.
 *
 * Left alone: a selection made inside the details (the failure-injection menus keep focus there),
 * the same selection again (an edit's fork keeps it), and stacked layouts without a scrolling column
 * (phones), where moving the page would take the person away from the timeline they work in.
 */
import { type RefObject, useEffect, useRef } from 'react';
import type { Selection } from '../../store/simStore';

/** A selection as a value: equal selections are the same key. */
export function selectionKey(s: Selection | null): string {
  if (!s) return '';
  switch (s.kind) {
    case 'record':
      return `record:${s.topic}:${s.partition}:${s.offset}`;
    case 'envelope':
      return `envelope:${s.id}`;
    case 'actor':
      return `actor:${s.id}`;
    case 'step':
      return `step:${s.index}`;
  }
}

/** Room left above the details' heading when the column scrolls to it. */
const REVEAL_MARGIN_PX = 8;

export function useRevealOnSelect(panel: RefObject<HTMLElement | null>, selection: Selection | null): void {
  const key = selectionKey(selection);
  const shown = useRef(key);
  useEffect(() => {
    if (key === shown.current) return;
    shown.current = key;
    const el = panel.current;
    if (!key || !el || el.contains(document.activeElement)) return;
    const column = el.closest<HTMLElement>('.column');
    // a column that does not scroll (stacked at phone width): the page is left where it is
    if (!column || getComputedStyle(column).overflowY === 'visible') return;
    const top = el.getBoundingClientRect().top - column.getBoundingClientRect().top;
    if (top >= 0 && top < column.clientHeight / 2) return;
    column.scrollTo({ top: column.scrollTop + top - REVEAL_MARGIN_PX });
  }, [key, panel]);
}
