/**
 * The page's side of the engine boundary (protocol.ts): runs a scenario in the engine's worker (or
 * in-process, inProcessEngine.ts) and gives back its outcome, its progress as it goes, and the views
 * at a step. Imports no engine code: only the protocol's types.
 */
import type { BudgetStop, Scenario, ScenarioError } from '../../sim';
import type { EnvelopePayload, FromEngine, ResolvedLink, RunOutcome, StepViews, ToEngine } from './protocol';

/** A worker, or anything that talks like one. */
export interface EnginePort {
  postMessage(m: ToEngine): void;
  onmessage: ((e: { data: FromEngine }) => void) | null;
  terminate(): void;
}

export type RunResult =
  | { readonly kind: 'done'; readonly outcome: RunOutcome }
  | { readonly kind: 'invalid'; readonly errors: readonly ScenarioError[] }
  /** Refused for its size before running; `scenario` as the engine resolved it. */
  | { readonly kind: 'refused'; readonly budget: BudgetStop; readonly scenario: Scenario }
  /** A newer run replaced this one before it finished. */
  | { readonly kind: 'replaced' };

export class EngineClient {
  private run = 0;
  private asks = 0;
  private pending: {
    run: number;
    resolve: (r: RunResult) => void;
    reject: (e: Error) => void;
    onProgress?: (steps: number) => void;
  } | null = null;
  private readonly viewAsks = new Map<number, (v: StepViews | null) => void>();
  private readonly panelAsks = new Map<number, (p: unknown) => void>();
  private readonly resolveAsks = new Map<number, (r: ResolvedLink) => void>();
  private readonly payloadAsks = new Map<number, (p: EnvelopePayload | null) => void>();

  constructor(private readonly port: EnginePort) {
    port.onmessage = (e) => this.receive(e.data);
  }

  /** Runs `scenario` (with `forkAt`: as an edit of the last finished run at that step); a newer run replaces it. */
  start(scenario: unknown, options: { forkAt?: number; onProgress?: (steps: number) => void } = {}): Promise<RunResult> {
    this.pending?.resolve({ kind: 'replaced' });
    const run = ++this.run;
    return new Promise((resolve, reject) => {
      this.pending = { run, resolve, reject, ...(options.onProgress ? { onProgress: options.onProgress } : {}) };
      this.port.postMessage({ type: 'start', run, scenario, ...(options.forkAt === undefined ? {} : { forkAt: options.forkAt }) });
    });
  }

  /** Stops the run under way; its promise resolves with the run so far (budget kind 'cancelled'). */
  cancel(): void {
    if (this.pending) this.port.postMessage({ type: 'cancel', run: this.pending.run });
  }

  /** The views of the last finished run after `step` steps (null before a run has finished). */
  views(step: number): Promise<StepViews | null> {
    const ask = ++this.asks;
    return new Promise((resolve) => {
      this.viewAsks.set(ask, resolve);
      this.port.postMessage({ type: 'views', run: this.run, ask, step });
    });
  }

  /** What the worker's panels provider shows after `step` steps of the last finished run (null before one has finished). */
  panels(step: number, options: unknown): Promise<unknown> {
    const ask = ++this.asks;
    return new Promise((resolve) => {
      this.panelAsks.set(ask, resolve);
      this.port.postMessage({ type: 'panels', run: this.run, ask, step, options });
    });
  }

  /** The payload of envelope `envelope` of the last finished run (null before one has finished, or with no such envelope). */
  payload(envelope: number): Promise<EnvelopePayload | null> {
    const ask = ++this.asks;
    return new Promise((resolve) => {
      this.payloadAsks.set(ask, resolve);
      this.port.postMessage({ type: 'payload', run: this.run, ask, envelope });
    });
  }

  /** What a share link or a preset id opens (decoded and validated by the engine), or why it cannot. */
  resolve(text: string): Promise<ResolvedLink> {
    const ask = ++this.asks;
    return new Promise((resolve) => {
      this.resolveAsks.set(ask, resolve);
      this.port.postMessage({ type: 'resolve', ask, text });
    });
  }

  terminate(): void {
    this.port.terminate();
  }

  private receive(m: FromEngine): void {
    if (m.type === 'views') {
      this.viewAsks.get(m.ask)?.(m.views);
      this.viewAsks.delete(m.ask);
      return;
    }
    if (m.type === 'panels') {
      this.panelAsks.get(m.ask)?.(m.panels);
      this.panelAsks.delete(m.ask);
      return;
    }
    if (m.type === 'payload') {
      this.payloadAsks.get(m.ask)?.(m.payload);
      this.payloadAsks.delete(m.ask);
      return;
    }
    if (m.type === 'resolved') {
      this.resolveAsks.get(m.ask)?.(m.result);
      this.resolveAsks.delete(m.ask);
      return;
    }
    const p = this.pending;
    if (!p || p.run !== m.run) return; // an answer for a run replaced since
    if (m.type === 'progress') {
      p.onProgress?.(m.steps);
      return;
    }
    this.pending = null;
    if (m.type === 'done') p.resolve({ kind: 'done', outcome: m.outcome });
    else if (m.type === 'invalid') p.resolve({ kind: 'invalid', errors: m.errors });
    else if (m.type === 'refused') p.resolve({ kind: 'refused', budget: m.budget, scenario: m.scenario });
    else p.reject(new Error(m.message));
  }
}

/** The engine in its own dedicated worker (a chunk of its own, fetched when this is called). */
export function workerEngine(): EngineClient {
  return new EngineClient(new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module' }) as unknown as EnginePort);
}
