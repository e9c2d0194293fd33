/**
 * The first stage's store: the embed's (src/embed/embedStore.ts: the engine worker's answers, never a
 * trace), over the embed's engine script in a worker (src/embed/embedEngine.ts; the built page names
 * the script in index.html's `eos-lab-engine` meta). Released when the workspace takes over.
 */
import { useStore } from 'zustand';
import { embedEngine } from '../embed/embedEngine';
import { createEmbedStore, type EmbedState } from '../embed/embedStore';
import type { EngineClient } from '../store/engine/engineClient';

let engine: EngineClient | null = null;

export const shellStore = createEmbedStore(() => {
  engine = embedEngine();
  return engine;
});

/** Stops the shell's worker (the workspace runs the scenario on its own from here). */
export function releaseShellEngine(): void {
  engine?.terminate();
  engine = null;
}

export function useShell<T>(selector: (s: EmbedState) => T): T {
  return useStore(shellStore, selector);
}
