/**
 * What crosses the boundary between the page and the engine's Web Worker (engine.worker.ts): plain,
 * structured-clone-able data only — a scenario (or an edit of the current one) in; progress, the
 * run's outcome and the views asked for at a step out. Every message carries the id of the run it
 * belongs to, so answers for a run the page has since replaced are dropped.
 */
import type { BudgetStop, LinkError, LinkView, Scenario, ScenarioError } from '../../sim';
import type { PartitionRow, VerdictView } from '../../sim/views';

export type ToEngine =
  /** Runs a scenario; with `forkAt`, as an edit of the last finished run's scenario at that step. */
  | { readonly type: 'start'; readonly run: number; readonly scenario: unknown; readonly forkAt?: number }
  /** Stops run `run` between two slices; what it computed so far lands (a bounded run). */
  | { readonly type: 'cancel'; readonly run: number }
  /** The views of the last finished run after `step` steps. */
  | { readonly type: 'views'; readonly run: number; readonly ask: number; readonly step: number }
  /**
   * What a page's own panels show after `step` steps (EngineCoreOptions.panels: the embed's lanes,
   * narration, verdict sentences …), computed by the worker it built; `options` are that page's (its language).
   */
  | { readonly type: 'panels'; readonly run: number; readonly ask: number; readonly step: number; readonly options: unknown }
  /** The payload of envelope `envelope` of the last finished run (rebuilt in the worker by replaying the step that sent it). */
  | { readonly type: 'payload'; readonly run: number; readonly ask: number; readonly envelope: number }
  /**
   * A share link or a preset id → its scenario and view (decoded and validated in the worker). Only the
   * embed asks this, so an unknown id's error names the embed's address, `embed.html?preset=<id>`.
   */
  | { readonly type: 'resolve'; readonly ask: number; readonly text: string };

/** An RPC's payload as the trace records it: plain data (request and response fields, batches, records). */
export type EnvelopePayload = Readonly<Record<string, unknown>>;

/** What a share link or a preset id opens, or why it cannot. */
export type ResolvedLink =
  | { readonly ok: true; readonly scenario: Scenario; readonly view: Partial<LinkView>; readonly migratedFrom?: number }
  | { readonly ok: false; readonly error: LinkError };

/** A finished run, as the page sees it without the trace. */
export interface RunOutcome {
  readonly steps: number;
  readonly traceHash: string;
  readonly stopReason: string;
  readonly endTime: number;
  /** The budget that stopped it, or 'cancelled'; null when it ran to its end. */
  readonly budget: BudgetStop | null;
  /** What the worker's panels provider computes once per run (the embed: story marks, the message diagram …). */
  readonly panels?: unknown;
}

/** What the panels show at one step. */
export interface StepViews {
  readonly step: number;
  readonly time: number;
  /** Each actor's state as the trace writes it (`live.READY`, `running.polling` …). */
  readonly states: readonly (readonly [string, string])[];
  readonly processes: readonly (readonly [string, { readonly down: boolean; readonly paused: boolean; readonly incarnation: number }])[];
  readonly partitions: readonly PartitionRow[];
  readonly verdict: VerdictView;
}

export type FromEngine =
  | { readonly type: 'invalid'; readonly run: number; readonly errors: readonly ScenarioError[] }
  /** Refused before running: the scenario is larger than the page's size budget. */
  | { readonly type: 'refused'; readonly run: number; readonly budget: BudgetStop; readonly scenario: Scenario }
  | { readonly type: 'progress'; readonly run: number; readonly steps: number }
  | { readonly type: 'done'; readonly run: number; readonly outcome: RunOutcome }
  | { readonly type: 'views'; readonly run: number; readonly ask: number; readonly views: StepViews | null }
  /** The panels asked for (null: that run is no longer the last finished one, or no provider). */
  | { readonly type: 'panels'; readonly run: number; readonly ask: number; readonly panels: unknown }
  /** The payload asked for (null: that run is no longer the last finished one, or it has no such envelope). */
  | { readonly type: 'payload'; readonly run: number; readonly ask: number; readonly payload: EnvelopePayload | null }
  | { readonly type: 'resolved'; readonly ask: number; readonly result: ResolvedLink }
  | { readonly type: 'error'; readonly run: number; readonly message: string };
