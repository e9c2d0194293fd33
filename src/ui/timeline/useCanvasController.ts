/**
 * The life of a canvas view's controller inside a React panel: made once the panel's DOM is there
 * (and only where a 2D canvas exists — some locked-down browsers and DOM test environments have
 * none, and then the text alternatives remain), handed the selection and the words as they change,
 * destroyed with the panel. The panel puts the refs on its elements (CanvasPlot does most of them).
 */
import { type RefObject, useEffect, useRef } from 'react';
import type { Selection } from '../../store/simStore';
import type { CanvasElements } from './CanvasController';
import { hasCanvas2d } from './canvasLayer';
import type { TimelineStrings } from './timelineText';

export interface CanvasRefs {
  readonly root: RefObject<HTMLDivElement | null>;
  readonly staticCanvas: RefObject<HTMLCanvasElement | null>;
  readonly overlayCanvas: RefObject<HTMLCanvasElement | null>;
  readonly tooltip: RefObject<HTMLDivElement | null>;
  readonly live: RefObject<HTMLParagraphElement | null>;
}

export interface ViewController {
  setSelection(selection: Selection | null): void;
  setText(text: TimelineStrings): void;
  destroy(): void;
}

export interface CanvasControllerProps<C> {
  readonly selection: Selection | null;
  readonly text: TimelineStrings;
  readonly onSelect: (selection: Selection | null) => void;
  /** Hands out the controller once made, and null before it is destroyed. */
  readonly onController?: (controller: C | null) => void;
}

/**
 * `make` builds the controller from the elements (the root is also the plot) and a stable onSelect;
 * it runs once, so it should read what changes through refs. It returns null when an element of its
 * own is missing. `controller` is the panel's ref to it (null while there is none).
 */
export function useCanvasController<C extends ViewController>(
  controller: RefObject<C | null>,
  make: (el: CanvasElements, onSelect: (selection: Selection | null) => void) => C | null,
  { selection, text, onSelect, onController }: CanvasControllerProps<C>,
): CanvasRefs {
  const refs: CanvasRefs = {
    root: useRef<HTMLDivElement>(null),
    staticCanvas: useRef<HTMLCanvasElement>(null),
    overlayCanvas: useRef<HTMLCanvasElement>(null),
    tooltip: useRef<HTMLDivElement>(null),
    live: useRef<HTMLParagraphElement>(null),
  };
  const select = useRef(onSelect);
  select.current = onSelect;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the controller lives as long as the panel
  useEffect(() => {
    const [root, s, o, t, l] = [
      refs.root.current,
      refs.staticCanvas.current,
      refs.overlayCanvas.current,
      refs.tooltip.current,
      refs.live.current,
    ];
    if (!root || !s || !o || !t || !l || !hasCanvas2d(s)) return;
    const c = make({ root, plot: root, staticCanvas: s, overlayCanvas: o, tooltip: t, live: l }, (sel) => select.current(sel));
    if (!c) return;
    controller.current = c;
    onController?.(c);
    return () => {
      onController?.(null);
      c.destroy();
      controller.current = null;
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: controller is a ref
  useEffect(() => {
    controller.current?.setSelection(selection);
  }, [selection]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: controller is a ref
  useEffect(() => {
    controller.current?.setText(text);
  }, [text]);

  return refs;
}
