/**
 * Which tasks this instance has: Kafka decides it from the ASSIGNMENT, never from a position.
 *
 * The main consumer's onJoinComplete hands the new assignment to StreamsPartitionAssignor.onAssignment
 * → TaskManager.handleAssignment, then calls StreamsRebalanceListener.onPartitionsAssigned
 * (handleRebalanceComplete). handleAssignment keeps a task it has for a partition assigned again,
 * closes one whose partitions are gone, and creates the rest (createNewTasks → ActiveTaskCreator.createTasks,
 * state CREATED). With Kafka 4.x's state updater (on by default) the stream thread's next loop
 * (checkStateUpdater → TaskManager.addTasksToStateUpdater) initialises a created task
 * (StreamTask.initializeIfNeeded: RESTORING) and the state updater restores its stores before
 * transitRestoredTaskToRunning adds it to the running tasks — with no commit or abort of the
 * thread's open transaction (restore.ts restoreForNewTask).
 * After a start — boot, restart, a task closed dirty and the group rejoined — the thread has no task:
 * every partition of its first assignment is a task created, and restored, then.
 */
import type { Out } from '../actors/out';
import { keyOf, parseTopicPartition, topicPartitionKey } from '../protocol/topicPartition';
import { rebalanceCompleted } from './revocation';
import type { AssignmentCall, Draft, Ev, StreamThreadContext } from './streamThreadContext';

/** The partitions of the assignment whose tasks this instance does not have yet: tasks newly assigned to it. */
export function newTasks(d: Pick<StreamThreadContext, 'assigned' | 'owned'>): string[] {
  return d.assigned.filter((tp) => !d.owned.includes(tp));
}

/**
 * The stores of the tasks newly assigned, by partition: the partitions of the counting topic (the
 * repartition topic after a groupBy, else the input topic) among them. A task of the groupBy's
 * first sub-topology has no store.
 */
export function newStorePartitions(d: Pick<StreamThreadContext, 'assigned' | 'owned' | 'inputTopic' | 'repartitionTopic'>): number[] {
  const counted = d.repartitionTopic ?? d.inputTopic;
  return newTasks(d)
    .map(parseTopicPartition)
    .filter((tp) => tp.topic === counted)
    .map((tp) => tp.partition);
}

function assignment(ev: Ev): string[] | null {
  return ev.type === 'onPartitionsAssigned' ? (ev as AssignmentCall).args.partitions.map(keyOf) : null;
}

/**
 * handleAssignment: the assignment is the thread's; a task whose partition is not in it any more is
 * closed, its store with it (it is created again, and restored, if the partition comes back). The
 * listener returns.
 */
export function takeAssignment(d: Draft, ev: Ev, out: Out): void {
  const partitions = assignment(ev) ?? [];
  d.assigned = partitions;
  d.owned = d.owned.filter((tp) => partitions.includes(tp));
  // a task closed takes its input positions with it: the next commit covers only the tasks kept
  d.positions = Object.fromEntries(Object.entries(d.positions).filter(([tp]) => partitions.includes(tp)));
  // handleRebalanceComplete (onPartitionsAssigned): commits may go out again
  rebalanceCompleted(d);
  // the state updater's tasks too: one no longer assigned is closed, its kept records dropped
  d.updating = d.updating.filter((tp) => partitions.includes(tp));
  const paused = d.paused;
  if (paused)
    d.paused = {
      records: (paused.records ?? []).filter((r) => partitions.includes(topicPartitionKey(r.topic, r.partition))),
      positions: Object.fromEntries(Object.entries(paused.positions ?? {}).filter(([tp]) => partitions.includes(tp))),
    };
  const counted = d.repartitionTopic ?? d.inputTopic;
  d.stores = Object.fromEntries(Object.entries(d.stores).filter(([p]) => partitions.includes(topicPartitionKey(counted, Number(p)))));
  out.call(d.consumer, 'partitionsAssignedDone', { offsets: {} });
}

/** Says which tasks are newly assigned (created, their stores restored before they process). */
export function announceNewTask(d: Draft, out: Out): void {
  const tasks = newTasks(d);
  out.fact({
    kind: 'note',
    actor: d.self,
    text:
      tasks.length === 1
        ? `task for ${tasks.join(', ')} newly assigned to this instance: it is created and its store restored from the changelog before it processes`
        : `tasks for ${tasks.join(', ')} newly assigned to this instance: they are created and their stores restored from the changelog before they process`,
  });
}
