/**
 * Which group, member and generation may commit offsets: OffsetMetadataManager.validateOffsetCommit
 * and validateTransactionalOffsetCommit, over ClassicGroup.validateOffsetCommit (group-coordinator,
 * 4.0 line). The same rules for OffsetCommit and TxnOffsetCommit, but for three differences:
 *
 * - a group the coordinator does not know, asked with a generation: OffsetCommit (v9 and later, as
 *   the 4.x clients send it) is GROUP_ID_NOT_FOUND, TxnOffsetCommit ILLEGAL_GENERATION;
 * - no member id and no generation on a group that is not Empty: UNKNOWN_MEMBER_ID for OffsetCommit
 *   only (old TxnOffsetCommit versions carry neither);
 * - a group completing a rebalance: REBALANCE_IN_PROGRESS for OffsetCommit only (the group's state
 *   is not enforced for a transactional commit).
 *
 * Without a generation (-1, Generation.NO_GENERATION: an admin tool or a consumer that assign()s
 * its partitions) an unknown group is created as a "simple" group and the commit accepted; so is one
 * on an Empty group, whatever member id it carries.
 */
import type { KafkaError } from '../protocol/errors';
import { type ConsumerGroup, memberError } from './classicGroup';

interface CommitIdentity {
  readonly generationId: number;
  readonly memberId: string;
  /** A static member's group.instance.id: validateMember fences a replaced one (FENCED_INSTANCE_ID). */
  readonly groupInstanceId?: string;
}

/** ClassicGroup.validateOffsetCommit on a group the coordinator knows. */
function groupCommitError(g: ConsumerGroup, req: CommitIdentity, transactional: boolean): KafkaError | null {
  if (g.state === 'Dead') return 'COORDINATOR_NOT_AVAILABLE';
  if (req.generationId < 0 && g.state === 'Empty') return null;
  if (req.generationId >= 0 || req.memberId !== '' || req.groupInstanceId !== undefined) {
    const error = memberError(g, req.memberId, req.generationId, req.groupInstanceId);
    if (error) return error;
  } else if (!transactional && g.state !== 'Empty') return 'UNKNOWN_MEMBER_ID';
  if (!transactional && g.state === 'CompletingRebalance') return 'REBALANCE_IN_PROGRESS';
  return null;
}

/** The group checks of an OffsetCommit; `undefined` is a group the coordinator does not know. */
export function offsetCommitGroupError(g: ConsumerGroup | undefined, req: CommitIdentity): KafkaError | null {
  if (!g) return req.generationId < 0 ? null : 'GROUP_ID_NOT_FOUND';
  return groupCommitError(g, req, false);
}

/** The group checks of a TxnOffsetCommit (KIP-447: a zombie's stale generation is fenced here). */
export function txnOffsetCommitGroupError(g: ConsumerGroup | undefined, req: CommitIdentity): KafkaError | null {
  if (!g) return req.generationId < 0 ? null : 'ILLEGAL_GENERATION';
  return groupCommitError(g, req, true);
}
