/*! EOS Lab embed loader — <eos-lab scenario="#s=1.… | preset-id" step autoplay theme height lang src>.
 * Inserts a sandboxed iframe of embed.html (found beside this script, or at `src`), resizes it from
 * the frame's `resize` messages, re-dispatches its messages as `eos-lab-<type>` events, and offers
 * play(), pause(), seek(step) and load(linkOrScenario). Plain JS, no dependencies. docs/embedding.md */
(() => {
  if (typeof customElements === 'undefined' || customElements.get('eos-lab')) return;
  const script = document.currentScript;
  const base = script?.src ? new URL('embed.html', script.src).href : new URL('embed.html', location.href).href;
  const frames = new Map();

  addEventListener('message', (e) => {
    const el = frames.get(e.source);
    const d = e.data;
    if (!el || !d || d.source !== 'eos-lab' || typeof d.type !== 'string') return;
    if (d.type === 'resize' && !el.hasAttribute('height') && Number.isFinite(d.height))
      el._frame.style.height = `${Math.min(4000, Math.max(150, Math.ceil(d.height)))}px`;
    // without a title of the host's, the frame is named by the run it shows, in its language: two
    // frames side by side in a post are no longer both "EOS Lab: Kafka exactly-once simulation"
    if ((d.type === 'ready' || d.type === 'loaded') && !el.hasAttribute('title') && typeof d.title === 'string' && d.title.trim())
      el._frame.title = `EOS Lab: ${d.title.trim()}`;
    if (typeof d.step === 'number') el.step = d.step;
    if (typeof d.steps === 'number') el.steps = d.steps;
    el.dispatchEvent(new CustomEvent(`eos-lab-${d.type}`, { detail: d }));
  });

  class EosLab extends HTMLElement {
    static observedAttributes = ['scenario', 'step', 'autoplay', 'theme', 'height', 'lang', 'src'];

    connectedCallback() {
      this._render();
    }

    disconnectedCallback() {
      if (this._frame) frames.delete(this._frame.contentWindow);
    }

    attributeChangedCallback() {
      if (this.isConnected && this._frame) this._render();
    }

    _src() {
      const scenario = (this.getAttribute('scenario') || '').trim();
      const url = new URL(this.getAttribute('src') || base, location.href);
      const q = url.searchParams;
      const hash = scenario.indexOf('s=') >= 0 ? scenario.slice(scenario.indexOf('#') + 1) : '';
      if (!hash && scenario) q.set('preset', scenario);
      // `lang` (en or ko) is the element's own: a Korean post's <eos-lab lang="ko"> opens a preset in
      // Korean whatever the reader's browser says (a share link's own language still wins)
      for (const name of ['step', 'theme', 'height', 'lang']) if (this.hasAttribute(name)) q.set(name, this.getAttribute(name));
      if (this.hasAttribute('autoplay') && this.getAttribute('autoplay') !== 'false') q.set('autoplay', '1');
      url.hash = hash;
      return url.href;
    }

    _render() {
      const root = this.shadowRoot || this.attachShadow({ mode: 'open' });
      if (this._frame) frames.delete(this._frame.contentWindow);
      const frame = document.createElement('iframe');
      frame.setAttribute('sandbox', 'allow-scripts allow-popups allow-popups-to-escape-sandbox');
      frame.setAttribute('referrerpolicy', 'origin');
      frame.setAttribute('loading', 'lazy');
      frame.title = this.getAttribute('title') || 'EOS Lab: Kafka exactly-once simulation';
      const h = Number.parseInt(this.getAttribute('height') || '', 10);
      frame.style.cssText = `display:block;width:100%;border:0;height:${h > 0 ? h : 520}px`;
      frame.src = this._src();
      const style = document.createElement('style');
      style.textContent = ':host{display:block;max-width:100%}';
      root.replaceChildren(style, frame);
      this._frame = frame;
      frames.set(frame.contentWindow, this);
    }

    // the frame's origin is opaque (sandboxed), so commands can only be addressed with '*'
    _send(message) {
      this._frame?.contentWindow?.postMessage(message, '*');
    }
    play() {
      this._send({ type: 'play' });
    }
    pause() {
      this._send({ type: 'pause' });
    }
    seek(step) {
      this._send({ type: 'seek', step });
    }
    load(source) {
      this._send(typeof source === 'string' ? { type: 'load', link: source } : { type: 'load', scenario: source });
    }
  }
  customElements.define('eos-lab', EosLab);
})();
