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

/** Shows the tooltip near (x, y) inside its positioned parent, flipping to stay inside it. */
export function placeTooltip(el: HTMLElement, x: number, y: number, boundsWidth: number): void {
  el.hidden = false;
  const w = el.offsetWidth;
  const left = x + 14 + w > boundsWidth ? Math.max(0, x - 14 - w) : x + 14;
  el.style.transform = `translate(${Math.round(left)}px, ${Math.round(y + 14)}px)`;
  el.dataset.x = String(Math.round(x));
  el.dataset.y = String(Math.round(y));
}

export function hideTooltip(el: HTMLElement): void {
  el.hidden = true;
  el.replaceChildren();
}
