import { Box, Text, useStdout } from 'ink';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { activityText, SPINNER, type Activity } from './activity.js';
import type { AttachStore } from './AttachStore.js';
import { inputLines } from './inputLines.js';
import { modalLines } from './permissionModal.js';
import { hintLine, queuedLines, statusLine } from './statusLine.js';
import { color } from './style.js';
import { viewport } from './viewport.js';

export interface AttachAppProps {
  store: AttachStore;
  /** The pod's name as addressed (until `welcome` names it). */
  podName: string;
  /** Receives the transcript's size on every render (for scrolling by pages). */
  onLayout?: (layout: { total: number; height: number }) => void;
  /** Terminal size; defaults to the output stream's. */
  columns?: number;
  rows?: number;
  /** The clock of the spinner's elapsed time. */
  now?: () => number;
}

/** Input lines shown at most; longer input scrolls around the cursor. */
const MAX_INPUT_LINES = 8;

/**
 * The full-screen view of `yoi attach`: the transcript (scrollable), while a run is live a
 * spinner with its elapsed time and what it does, the input, a hint line and the status bar.
 * It only renders the store's state; all behaviour lives in AttachController.
 */
export function AttachApp({ store, podName, onLayout, columns, rows, now = Date.now }: AttachAppProps) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const size = useTerminalSize();
  const width = Math.max(20, columns ?? size.columns);
  // One row is left free: ink redraws the whole screen when its output fills the terminal.
  const height = Math.max(6, (rows ?? size.rows) - 1);
  const { transcript } = state;
  const activity = state.connection === 'connected' ? transcript.activity : undefined;

  const input = inputLines(state.input, width, Math.min(MAX_INPUT_LINES, Math.max(1, height - 5)), transcript.kinds);
  // A permission ask waits for a key: the oldest is drawn above the input, its countdown ticking.
  const ask = state.asks?.[0];
  const modal = ask
    ? modalLines(ask, {
        now: state.askClock ?? now(),
        width,
        podName: transcript.podName ?? podName,
        more: state.asks!.length - 1,
      })
    : [];
  const transcriptHeight = Math.max(1, height - input.length - 2 - (activity ? 1 : 0) - modal.length);
  const view = viewport(
    transcript.blocks,
    queuedLines(state),
    width,
    transcriptHeight,
    state.scroll,
    state.showTools,
    transcript.kinds,
  );
  onLayout?.({ total: view.total, height: transcriptHeight });

  return (
    <Box flexDirection="column" width={width} height={height}>
      <Box flexDirection="column" height={transcriptHeight}>
        {view.lines.map((line, i) => (
          <Text key={i} wrap="truncate-end">
            {line || ' '}
          </Text>
        ))}
      </Box>
      {modal.map((line, i) => (
        <Text key={`ask${i}`} wrap="truncate-end">
          {line}
        </Text>
      ))}
      {activity && <ActivityLine activity={activity} since={state.runSince ?? now()} now={now} />}
      {input.map((line, i) => (
        <Text key={`in${i}`} wrap="truncate-end">
          {line}
        </Text>
      ))}
      <Text wrap="truncate-end">{hintLine(state, podName)}</Text>
      <Text wrap="truncate-end">{statusLine(state, podName)}</Text>
    </Box>
  );
}

/** `⠹ running Read… 12s · Ctrl-C pauses`, redrawn at the spinner's pace while a run is live. */
function ActivityLine({ activity, since, now }: { activity: Activity; since: number; now: () => number }) {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), SPINNER.interval);
    return () => clearInterval(timer);
  }, []);
  const elapsed = now() - since;
  const frame = SPINNER.frames[Math.floor(Math.max(0, elapsed) / SPINNER.interval) % SPINNER.frames.length];
  return <Text wrap="truncate-end">{`${color.cyan(frame)} ${color.dim(activityText(activity, elapsed))}`}</Text>;
}

function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
