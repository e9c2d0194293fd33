/**
 * The KRaft controller's partition changes as pure functions (PartitionChangeBuilder with ELR off,
 * the 4.0 default): leader election, the ISR a fenced broker leaves, and the epochs each change
 * bumps.
 */
import type { ActorId } from '../kernel/envelope';

/** PartitionRegistration: what the controller keeps per partition. */
export interface PartitionRegistration {
  readonly topic: string;
  readonly partition: number;
  /** Assignment order, the preferred leader first. */
  readonly replicas: readonly ActorId[];
  readonly isr: readonly ActorId[];
  /** null: no leader (offline, leader −1). */
  readonly leader: ActorId | null;
  readonly leaderEpoch: number;
  readonly partitionEpoch: number;
}

export interface ElectionResult {
  readonly leader: ActorId | null;
  readonly unclean: boolean;
}

/**
 * PartitionChangeBuilder.electAnyLeader: keep the current leader if it is in the target ISR and
 * acceptable (unfenced); else the first replica in assignment order that is in the ISR and
 * acceptable; else, if unclean election is allowed, the first acceptable replica (unclean); else
 * no leader.
 */
export function electLeader(
  replicas: readonly ActorId[],
  targetIsr: readonly ActorId[],
  currentLeader: ActorId | null,
  acceptable: (broker: ActorId) => boolean,
  uncleanAllowed: boolean,
): ElectionResult {
  const valid = (b: ActorId) => targetIsr.includes(b) && acceptable(b);
  if (currentLeader !== null && valid(currentLeader)) return { leader: currentLeader, unclean: false };
  const clean = replicas.find(valid);
  if (clean !== undefined) return { leader: clean, unclean: false };
  if (uncleanAllowed) {
    const any = replicas.find(acceptable);
    if (any !== undefined) return { leader: any, unclean: true };
  }
  return { leader: null, unclean: false };
}

export interface PartitionChangeResult {
  readonly registration: PartitionRegistration;
  /** Whether anything changed (a PartitionChangeRecord is written). */
  readonly changed: boolean;
  /** `preferred`: the preferred replica elected back by the controller's leader-imbalance check (preferredElection). */
  readonly election: 'clean' | 'unclean' | 'preferred' | null;
}

/**
 * PartitionChangeBuilder.build for a target ISR: without ELR an empty target ISR is not written (the
 * last member stays); the leader is elected over the target ISR; an unclean leader makes the ISR
 * just itself. The leader epoch goes up on every leader change (to none too); the partition epoch
 * on every change.
 */
export function changePartition(
  reg: PartitionRegistration,
  targetIsr: readonly ActorId[],
  acceptable: (broker: ActorId) => boolean,
  uncleanAllowed: boolean,
): PartitionChangeResult {
  const isr = targetIsr.length === 0 ? reg.isr : targetIsr;
  const elected = electLeader(reg.replicas, isr, reg.leader, acceptable, uncleanAllowed);
  const nextIsr = elected.unclean && elected.leader !== null ? [elected.leader] : isr;
  const leaderChanged = elected.leader !== reg.leader;
  const isrChanged = nextIsr.length !== reg.isr.length || nextIsr.some((b, i) => reg.isr[i] !== b);
  if (!leaderChanged && !isrChanged) return { registration: reg, changed: false, election: null };
  return {
    registration: {
      ...reg,
      isr: nextIsr,
      leader: elected.leader,
      leaderEpoch: leaderChanged ? reg.leaderEpoch + 1 : reg.leaderEpoch,
      partitionEpoch: reg.partitionEpoch + 1,
    },
    changed: true,
    election: leaderChanged && elected.leader !== null ? (elected.unclean ? 'unclean' : 'clean') : null,
  };
}

/** ReplicationControlManager.handleBrokerFenced: the broker leaves every ISR (never emptying one), its leaderships move. */
export function onBrokerFenced(
  reg: PartitionRegistration,
  broker: ActorId,
  acceptable: (broker: ActorId) => boolean,
  uncleanAllowed: boolean,
): PartitionChangeResult {
  if (!reg.replicas.includes(broker)) return { registration: reg, changed: false, election: null };
  return changePartition(
    reg,
    reg.isr.filter((b) => b !== broker),
    acceptable,
    uncleanAllowed,
  );
}

/** ReplicationControlManager.handleBrokerUnfenced: a partition without a leader elects again (clean if its ISR member returned). */
export function onBrokerUnfenced(
  reg: PartitionRegistration,
  acceptable: (broker: ActorId) => boolean,
  uncleanAllowed: boolean,
): PartitionChangeResult {
  if (reg.leader !== null) return { registration: reg, changed: false, election: null };
  return changePartition(reg, reg.isr, acceptable, uncleanAllowed);
}

/** PartitionRegistration.hasPreferredLeader: the leader is the first replica of the assignment (preferredReplica). */
export function hasPreferredLeader(reg: PartitionRegistration): boolean {
  return reg.leader === (reg.replicas[0] ?? null);
}

/**
 * PartitionChangeBuilder.build with Election.PREFERRED and the ISR as it is (electPreferredLeader, ELR
 * off): the preferred replica (the first of the assignment) if it is in the ISR and acceptable
 * (unfenced, not in controlled shutdown); else the current leader if it still is valid (nothing to
 * write); else the first other replica that is valid; else no leader. Nothing unclean. The election is
 * said `preferred` when the preferred replica is the new leader.
 */
export function preferredElection(reg: PartitionRegistration, acceptable: (broker: ActorId) => boolean): PartitionChangeResult {
  const valid = (b: ActorId | null): b is ActorId => b !== null && reg.isr.includes(b) && acceptable(b);
  const preferred = reg.replicas[0] ?? null;
  const leader = valid(preferred) ? preferred : valid(reg.leader) ? reg.leader : (reg.replicas.slice(1).find((b) => valid(b)) ?? null);
  if (leader === reg.leader) return { registration: reg, changed: false, election: null };
  return {
    registration: { ...reg, leader, leaderEpoch: reg.leaderEpoch + 1, partitionEpoch: reg.partitionEpoch + 1 },
    changed: true,
    election: leader === null ? null : leader === preferred ? 'preferred' : 'clean',
  };
}
