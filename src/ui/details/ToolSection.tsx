/**
 * A details section that shows one command-line tool's output: its title with the tool's name, the
 * terminal block (ToolOutput), and the lines under it that say what the output means here. `data`
 * becomes data-* attributes (what tests read: the result's kind, its counts); `controls` (the tool's
 * options a reader can choose) go between the title and the output.
 */
import type { ReactNode } from 'react';
import type { SimView } from '../../sim/views';
import { ToolOutput } from './ToolOutput';

/** What a tool about one partition needs: the step's view and the partition. */
export interface PartitionToolProps {
  readonly view: SimView;
  readonly topic: string;
  readonly partition: number;
}

export function ToolSection({
  testId,
  className,
  title,
  tool,
  command,
  text,
  data,
  controls,
  children,
}: {
  readonly testId: string;
  readonly className: string;
  readonly title: string;
  readonly tool: string;
  readonly command: string;
  readonly text: string;
  readonly data: Readonly<Record<string, string | number | undefined>>;
  readonly controls?: ReactNode;
  readonly children: ReactNode;
}) {
  const attributes = Object.fromEntries(Object.entries(data).map(([k, v]) => [`data-${k}`, v]));
  return (
    <section className={`group-describe ${className}`} data-testid={testId} aria-label={title} {...attributes}>
      <h4>
        {title} <code translate="no">{tool}</code>
      </h4>
      {controls}
      <ToolOutput command={command} text={text} />
      {children}
    </section>
  );
}
