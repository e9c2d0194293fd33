import { useStore } from 'zustand';
import { type SimState, simStore } from './simStore';

/** Reads a slice of the simulation store and re-renders when it changes. */
export function useSim<T>(selector: (s: SimState) => T): T {
  return useStore(simStore, selector);
}
