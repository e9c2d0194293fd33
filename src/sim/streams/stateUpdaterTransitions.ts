/**
 * The state updater's transitions in the stream thread's machine (streamThread.machine.ts; its
 * actions in stateUpdater.ts): it starts where the thread meets new tasks next to running ones, its
 * restore consumer's answers are taken in every `running` sub-state, and a restored task's records
 * run where the thread would poll.
 */
import { beginBatch, takeHeldBatch } from './processing';
import { applyRestoreReply, pollChangelog, seekChangelogToBeginning } from './restore';
import { finishUpdater, holdBusyPoll, startUpdater } from './stateUpdater';
import { act, replyOf } from './streamThreadContext';

export const startUpdating = act((d, _now, _ev, out) => startUpdater(d, out));
/** A poll() answer while the thread processes or commits (its poll() was out as a restored task's records ran): held. */
export const holdPollWhileBusy = { guard: 'mainPoll' as const, actions: act((d, _now, ev) => holdBusyPoll(d, replyOf(ev))) };
/** Where the thread would poll, a batch that waits runs first (stateUpdater.ts): a restored task's records, inside the open transaction. */
export const runHeldBatch = {
  guard: 'heldBatchWaits' as const,
  target: 'processing',
  actions: [act((d, _now, _ev, out) => takeHeldBatch(d, out)), act((d, _now, _ev, out) => beginBatch(d, out))],
};

/**
 * The state updater (stateUpdater.ts): the restore consumer's answers to its restore, taken in every
 * `running` sub-state — the thread polls, processes and commits the running tasks meanwhile.
 */
export const updaterReplies = [
  { guard: 'updaterEmptyChangelog' as const, actions: act((d, _now, ev, out) => finishUpdater(d, replyOf(ev), out)) },
  { guard: 'updaterReadToEnd' as const, actions: act((d, _now, ev, out) => finishUpdater(d, replyOf(ev), out)) },
  {
    guard: 'updaterEndOffsets' as const,
    actions: [act((d, _now, ev) => applyRestoreReply(d, replyOf(ev))), act((d, _now, _ev, out) => seekChangelogToBeginning(d, out))],
  },
  { guard: 'updaterSeeked' as const, actions: act((d, _now, _ev, out) => pollChangelog(d, out)) },
  {
    guard: 'updaterPolled' as const,
    actions: [act((d, _now, ev) => applyRestoreReply(d, replyOf(ev))), act((d, _now, _ev, out) => pollChangelog(d, out))],
  },
];
