/**
 * The embed's side of the postMessage API (docs/embedding.md).
 *
 * - Commands are taken only from the parent window (`event.source === window.parent`), and each is
 *   validated (messages.ts) before it touches the store. Unknown messages are ignored silently.
 * - `resize` is posted only once the content is no longer busy, and while one run is shown at one
 *   width it never goes down (see measure below).
 * - `ready` and `resize` say nothing about the scenario's progress and may go to any origin ('*'):
 *   the loader needs them before it has spoken. Everything else — `step`, `loaded`, `error` — goes
 *   only to the parent's origin, learned from its first valid command or from document.referrer.
 *   Replies go to the command's `event.origin`.
 * - Nothing here touches history or storage: hosts sandbox and restrict embeds.
 */
import type { EmbedStore } from './embedStore';
import { MESSAGE_SOURCE, type Outbound, originOf, parseInbound } from './messages';

type Payload<T extends Outbound['type']> = Omit<Extract<Outbound, { type: T }>, 'source' | 'type'>;

export interface BridgeOptions {
  /**
   * Loads a scenario object or a link / preset id; resolves with an error sentence, or null when it
   * runs (the engine's worker decodes and validates it, so the answer comes a moment later).
   */
  readonly load: (source: { scenario: unknown } | { link: string }, step: number | undefined) => Promise<string | null>;
  readonly title: () => string;
}

export function startBridge(store: EmbedStore, options: BridgeOptions, win: Window = window): () => void {
  const parent = win.parent;
  if (!parent || parent === win) return () => {};
  let parentOrigin: string | null = originOf(win.document.referrer);
  let learned = false;

  const post = <T extends Outbound['type']>(type: T, payload: Payload<T>, target: string | null) => {
    if (!target) return;
    try {
      parent.postMessage({ source: MESSAGE_SOURCE, type, ...payload }, target);
    } catch {
      // the parent navigated away, or the target is not a valid origin: nothing to tell
    }
  };
  const progress = () => {
    const s = store.getState();
    return { step: s.step, steps: s.steps, playing: s.playing };
  };

  // ready: once per run that lands (a `load` command lands a new run and says `loaded` as well)
  let announced = false;
  const announce = () => {
    const s = store.getState();
    if (s.status !== 'ready' || announced) return;
    announced = true;
    post('ready', { step: s.step, steps: s.steps, title: options.title() }, '*');
  };

  // a `load` whose run finishes in slices is answered when it lands
  let loadReplyTo: string | null = null;
  const stopStore = store.subscribe((s, prev) => {
    if (s.status === 'ready' && prev.status !== 'ready') {
      announce();
      // a new run landed (an invalid scenario leaves the one on screen, and is answered with `error`)
      if (loadReplyTo && s.run !== prev.run) post('loaded', { steps: s.steps, title: options.title() }, loadReplyTo);
      loadReplyTo = null;
    }
    if (s.step !== prev.step || s.playing !== prev.playing || s.run !== prev.run) post('step', progress(), parentOrigin);
  });

  let lastHeight = 0;
  // While one run is shown at one width, the height posted never goes down: the narration and the
  // verdict's sentences change length at every step, and a host sizing its frame from each of them
  // moved everything below the frame up and down while the run played (by 300 px on a phone). The
  // frame keeps the tallest height it has needed — blank below a shorter step — so the host's page
  // moves only when a step needs more room than any before. A new run, or a new width (its lines
  // wrap anew), starts from the content's own height again.
  let tallest = 0;
  let tallestFor: { readonly width: number; readonly run: unknown } = { width: -1, run: null };
  // the content's own height: the document's scrollHeight never drops below the frame's height
  const content = () => win.document.getElementById('root') ?? win.document.body;
  // While the frame loads — the skeleton, or a run still on its way from the worker — its content is
  // marked aria-busy (embed.html, EmbedApp) and its height says nothing: posting it would shrink the
  // host's frame to a header until the run lands, then make it jump back. The host's own height
  // stands until what the frame shows (a run, or why it cannot run one) is on screen.
  const busy = () => content().querySelector('[aria-busy="true"]') !== null;
  const measure = () => {
    if (busy()) return;
    const box = content().getBoundingClientRect();
    const width = Math.round(box.width ?? 0);
    const run = store.getState().run;
    if (width !== tallestFor.width || run !== tallestFor.run) {
      tallest = 0;
      tallestFor = { width, run };
    }
    tallest = Math.max(tallest, Math.ceil(box.height));
    const h = tallest;
    if (h !== lastHeight) {
      lastHeight = h;
      post('resize', { height: h }, '*');
    }
  };
  const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
  observer?.observe(content());
  // the content may settle without changing size since it was last measured busy
  const settled = typeof MutationObserver === 'undefined' ? null : new MutationObserver(measure);
  settled?.observe(content(), { subtree: true, attributes: true, attributeFilter: ['aria-busy'] });

  const onMessage = (event: MessageEvent) => {
    if (event.source !== parent) return;
    const parsed = parseInbound(event.data);
    if (parsed.kind === 'ignore') return;
    const replyTo = originOf(event.origin);
    if (!learned && replyTo) {
      parentOrigin = replyTo;
      learned = true;
    }
    if (parsed.kind === 'invalid') {
      post('error', { about: parsed.about, message: parsed.message }, replyTo);
      return;
    }
    const c = parsed.command;
    const s = store.getState();
    if (c.type === 'play') {
      if (s.run && s.step >= s.steps) s.seek(0);
      store.getState().setPlaying(true);
    } else if (c.type === 'pause') s.setPlaying(false);
    else if (c.type === 'seek') {
      const before = s.step;
      s.setPlaying(false);
      s.seek(c.step);
      // the store subscription already told the parent's origin when the step moved
      if (store.getState().step === before || replyTo !== parentOrigin) post('step', progress(), replyTo);
    } else {
      loadReplyTo = replyTo;
      void options.load(c.scenario !== undefined ? { scenario: c.scenario } : { link: c.link ?? '' }, c.step).then((error) => {
        if (!error) return;
        if (loadReplyTo === replyTo) loadReplyTo = null;
        post('error', { about: 'load', message: error }, replyTo);
      });
    }
  };
  win.addEventListener('message', onMessage);
  announce();
  measure();
  return () => {
    stopStore();
    observer?.disconnect();
    settled?.disconnect();
    win.removeEventListener('message', onMessage);
  };
}
