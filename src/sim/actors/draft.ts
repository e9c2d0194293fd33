/**
 * Handlers work on a shallow draft of their machine's context: a copy whose top-level fields may be
 * reassigned (never the nested values, which stay shared with the previous snapshot).
 */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
