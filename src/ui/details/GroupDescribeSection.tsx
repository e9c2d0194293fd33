/**
 * What `kafka-consumer-groups.sh --describe --group G` would print at the step, for a selected
 * consumer, application or Streams application with a group, in the tool's three views: the offsets
 * (sim/tools/describeGroup.ts), `--members --verbose` and `--state` (sim/tools/describeGroupViews.ts).
 * The tool's own text in a terminal block, a choice of view, a choice of scope (the client's group,
 * `--group G`, or every group, `--all-groups`), and a line saying what the view shows.
 */
import { useState } from 'react';
import {
  describeAllGroupsText,
  describeGroupAt,
  describeGroupText,
  describeMembersAt,
  describeMembersText,
  describeStateAt,
  describeStateText,
  metricsClientOf,
  type SimView,
  type Trace,
} from '../../sim/views';
import { useStrings } from '../i18n';
import { ToolChoice, type ToolOption } from './ToolChoice';
import { ToolOutput } from './ToolOutput';

/** The group of the scenario client `id` belongs to: a consumer's group.id, a Streams application's application.id. */
function groupOf(trace: Trace, id: string): string | null {
  const client = metricsClientOf(trace, id);
  if (!client) return null;
  return trace.resolved.consumers[client]?.['group.id'] || trace.resolved.streams[client]?.['application.id'] || null;
}

type View = 'offsets' | 'members' | 'state';

/** The view's options on the command line, and what the tool prints. */
function output(view: View, sim: SimView, group: string): { options: string; kind: string; text: string } {
  if (view === 'members') {
    const r = describeMembersAt(sim, group);
    return { options: '--describe --members --verbose', kind: r.kind, text: describeMembersText(r, true) };
  }
  if (view === 'state') {
    const r = describeStateAt(sim, group);
    return { options: '--describe --state', kind: r.kind, text: describeStateText(r) };
  }
  const r = describeGroupAt(sim, group);
  return { options: '--describe', kind: r.kind, text: describeGroupText(r) };
}

const VIEWS: readonly ToolOption<View>[] = [
  { id: 'offsets', label: '--offsets' },
  { id: 'members', label: '--members' },
  { id: 'state', label: '--state' },
];

export function GroupDescribeSection({ trace, view, id }: { readonly trace: Trace; readonly view: SimView; readonly id: string }) {
  const t = useStrings();
  const [shown, setShown] = useState<View>('offsets');
  const [all, setAll] = useState(false);
  const group = groupOf(trace, id);
  if (!group) return null;
  const one = output(shown, view, group);
  // --all-groups: the same view of every group (--members with --verbose, as for one)
  const out = all ? { ...one, text: describeAllGroupsText(view, shown, shown === 'members') } : one;
  const note =
    out.kind === 'unavailable'
      ? t.describeGroupUnavailable
      : shown === 'members'
        ? t.describeGroupMembersNote
        : shown === 'state'
          ? t.describeGroupStateNote
          : t.describeGroupNote;
  return (
    <section
      className="group-describe"
      data-testid="group-describe"
      data-group={group}
      data-view={shown}
      data-scope={all ? 'all-groups' : 'group'}
      data-kind={out.kind}
      aria-label={t.describeGroupTitle(group)}
    >
      <h4>
        {t.describeGroupTitle(group)} <code translate="no">kafka-consumer-groups.sh --describe</code>
      </h4>
      <ToolChoice
        testId="group-describe-view"
        label={t.describeGroupView}
        attribute="view"
        options={VIEWS}
        chosen={shown}
        onChoose={setShown}
      />
      <ToolChoice
        testId="group-describe-scope"
        label={t.describeGroupScope}
        attribute="scope"
        options={[
          { id: false, label: `--group ${group}`, data: 'group' },
          { id: true, label: '--all-groups', data: 'all-groups' },
        ]}
        chosen={all}
        onChoose={setAll}
      />
      <ToolOutput
        command={`kafka-consumer-groups.sh --bootstrap-server broker-0:9092 ${out.options} ${all ? '--all-groups' : `--group ${group}`}`}
        text={out.text}
      />
      <p className="muted">{note}</p>
      {all && <p className="muted">{t.describeAllGroupsNote}</p>}
    </section>
  );
}
