/** Members in member id order, as the group's assignors (range, Streams' sticky) take them. */
export const byMemberId = (a: { memberId: string }, b: { memberId: string }) =>
  a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0;
