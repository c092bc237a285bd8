import { Box, Text } from 'ink';
import type { ReactElement } from 'react';
import { layoutDashboard, type Segment } from './layout.ts';
import type { DashboardState } from './state.ts';

/** Props of {@link Dashboard}. */
export interface DashboardProps {
  readonly state: DashboardState;
}

/** Paints the laid-out lines; colours only when `state.color` is on (NO_COLOR honoured upstream). */
export function Dashboard({ state }: DashboardProps): ReactElement {
  const lines = layoutDashboard(state);
  return (
    <Box flexDirection="column">
      {lines.map((line, row) => (
        // Rows are positional: the same row index is the same screen line between frames.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Text key={row} wrap="truncate-end">
          {line.map((segment, at) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional too
            <SegmentText key={at} segment={segment} color={state.color} />
          ))}
        </Text>
      ))}
    </Box>
  );
}

function SegmentText({ segment, color }: { segment: Segment; color: boolean }): ReactElement {
  if (!color) return <Text>{segment.text}</Text>;
  return (
    <Text
      {...(segment.tone === undefined ? {} : { color: segment.tone })}
      {...(segment.bold === true ? { bold: true } : {})}
      {...(segment.inverse === true ? { inverse: true } : {})}
    >
      {segment.text}
    </Text>
  );
}
