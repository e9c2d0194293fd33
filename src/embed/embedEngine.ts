/**
 * Starts the embed's engine off the main thread: a dedicated worker running the engine script
 * (engineScript.ts). The built embed names that script in `__EOS_EMBED_ENGINE__` (vite.config.ts);
 * the worker is made from a Blob that importScripts it, since a sandboxed frame (opaque origin) may
 * not start a worker from the host's URL. Where workers are unavailable or the worker fails before
 * it answers, the engine script is loaded on the page and runs in-process behind the same port
 * (inProcessPort), the messages sent so far replayed to it. Imports no engine code.
 */
import { EngineClient, type EnginePort } from '../store/engine/engineClient';
import { type CoreFactory, inProcessPort } from '../store/engine/inProcessPort';
import type { FromEngine, ToEngine } from '../store/engine/protocol';

declare const __EOS_EMBED_ENGINE__: string | undefined;

/**
 * The engine script's URL: the built one beside embed.js (the page's first stage, src/shell/, finds
 * it in index.html's `eos-lab-engine` meta, which the build fills in), or (npm run dev) the module itself.
 */
function engineScript(): { url: string; module: boolean } {
  if (typeof __EOS_EMBED_ENGINE__ === 'string') return { url: new URL(__EOS_EMBED_ENGINE__, document.baseURI).href, module: false };
  const named = document.querySelector<HTMLMetaElement>('meta[name="eos-lab-engine"]')?.content;
  if (named) return { url: new URL(named, document.baseURI).href, module: false };
  return { url: new URL('/src/embed/engineScript.ts', document.baseURI).href, module: true };
}

function startWorker(script: { url: string; module: boolean }): Worker {
  if (script.module) return new Worker(script.url, { type: 'module' });
  const source = `importScripts(${JSON.stringify(script.url)});`;
  return new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
}

/** The engine script on this page (the fallback): its core's factory. */
function loadOnPage(script: { url: string; module: boolean }): Promise<CoreFactory> {
  const found = () => (globalThis as { EosLabEngine?: { createCore: CoreFactory } }).EosLabEngine?.createCore;
  if (script.module)
    return import(/* @vite-ignore */ script.url).then(() => {
      const f = found();
      if (!f) throw new Error('the engine script defined no engine');
      return f;
    });
  return new Promise((resolve, reject) => {
    const el = document.createElement('script');
    el.src = script.url;
    el.onload = () => {
      const f = found();
      if (f) resolve(f);
      else reject(new Error('the engine script defined no engine'));
    };
    el.onerror = () => reject(new Error('EOS Lab could not load its engine script'));
    document.head.append(el);
  });
}

/** The port the client talks to: the worker's, or the in-process engine's once the worker failed. */
class FallbackPort implements EnginePort {
  onmessage: ((e: { data: FromEngine }) => void) | null = null;
  private target: EnginePort | Worker | null = null;
  /** Sent before the worker's first answer: replayed if it fails. */
  private unanswered: ToEngine[] | null = [];
  private queued: ToEngine[] = [];

  constructor(private readonly script: { url: string; module: boolean }) {
    let worker: Worker | null = null;
    try {
      worker = typeof Worker === 'function' ? startWorker(script) : null;
    } catch {
      worker = null;
    }
    if (!worker) {
      this.fallBack();
      return;
    }
    const w = worker;
    w.onmessage = (e: MessageEvent<FromEngine>) => {
      this.unanswered = null;
      this.onmessage?.({ data: e.data });
    };
    w.onerror = (e) => {
      if (this.unanswered === null) return; // it answered before: an error of one run, reported as such
      e.preventDefault();
      w.terminate();
      this.fallBack();
    };
    this.target = w;
  }

  /** `true` once the engine runs on this page (no worker). */
  inProcess = false;

  private fallBack(): void {
    this.inProcess = true;
    const replay = [...(this.unanswered ?? []), ...this.queued];
    this.unanswered = null;
    this.queued = [];
    this.target = null;
    void loadOnPage(this.script).then(
      (create) => {
        const port = inProcessPort(create);
        port.onmessage = (e) => this.onmessage?.(e);
        this.target = port;
        for (const m of replay) port.postMessage(m);
        for (const m of this.queued) port.postMessage(m);
        this.queued = [];
      },
      (err: unknown) => console.error(err),
    );
  }

  postMessage(m: ToEngine): void {
    if (!this.target) {
      this.queued.push(m);
      return;
    }
    this.unanswered?.push(m);
    this.target.postMessage(m);
  }

  terminate(): void {
    this.target?.terminate();
  }
}

/** The embed's engine: in a worker, or on this page where no worker can start. */
export function embedEngine(): EngineClient {
  return new EngineClient(new FallbackPort(engineScript()));
}
