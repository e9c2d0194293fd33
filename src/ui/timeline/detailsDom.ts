/**
 * Fills the tooltip element with details, as text nodes only (scenario text is never parsed as HTML).
 */
import type { Details } from './details';

export function renderDetails(el: HTMLElement, d: Details, extra?: string): void {
  const title = document.createElement('div');
  title.className = 'tl-tooltip-title';
  title.textContent = d.title;
  const dl = document.createElement('dl');
  for (const [k, v] of d.lines) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    dl.append(dt, dd);
  }
  const nodes: Node[] = [title, dl];
  if (extra) {
    const p = document.createElement('p');
    p.className = 'tl-tooltip-extra';
    p.textContent = extra;
    nodes.push(p);
  }
  el.replaceChildren(...nodes);
}

/**
 * Shows the tooltip near (x, y) inside its positioned parent (the plot), flipping to stay inside it.
 * It may reach left over the gutter of lane names beside the plot: on a phone the plot is narrower
 * than the details (a replica's, an envelope's), which were squeezed to one letter a line and cut
 * off at the panel's right edge.
 */
export function placeTooltip(el: HTMLElement, x: number, y: number, boundsWidth: number): void {
  el.hidden = false;
  const plot = el.offsetParent;
  const gutter = plot instanceof HTMLElement ? plot.offsetLeft : 0;
  // its left edge at the gutter's, so that it may be as wide as gutter and plot together
  el.style.left = `${-gutter}px`;
  const w = el.offsetWidth;
  const left = x + 14 + w > boundsWidth ? Math.max(-gutter, Math.min(x - 14 - w, boundsWidth - w)) : x + 14;
  el.style.transform = `translate(${Math.round(left + gutter)}px, ${Math.round(y + 14)}px)`;
  el.dataset.x = String(Math.round(x));
  el.dataset.y = String(Math.round(y));
}

export function hideTooltip(el: HTMLElement): void {
  el.hidden = true;
  el.replaceChildren();
}
