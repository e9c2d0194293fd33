/** An embed's frame for the bridge (src/embed/bridge) in DOM tests: its parent records what it is posted. */
export function recordingFrame(): { win: Window; resizeHeights: () => number[] } {
  const posted: { type: string; height?: number }[] = [];
  const win = {
    parent: { postMessage: (m: { type: string; height?: number }) => posted.push(m) },
    document,
    addEventListener: () => {},
    removeEventListener: () => {},
  } as unknown as Window;
  return { win, resizeHeights: () => posted.filter((m) => m.type === 'resize').map((m) => m.height ?? -1) };
}
