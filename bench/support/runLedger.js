// Follows one client's broadcast stream (v2, in seq order) and checks that every run ends with
// exactly one terminal event: a run starts when the status becomes `running` other than on the
// way back from a mid-run compaction, and ends with `run_end` or a broadcast `error` (one
// without a request id) before the status leaves the run. Every `compact_start` ends with one
// `compact_done` or `compact_failed`. Gaps in `seq` are counted too.
export function runLedger() {
  const ledger = {
    runs: 0,
    terminals: 0,
    userMessages: 0,
    compactions: 0,
    compacted: 0,
    compactFailed: 0,
    failedBecause: {},
    seqGaps: 0,
    lagged: 0,
    violations: [],
  };
  let status = 'idle';
  let inRun = false;
  let compacting = false;
  let lastSeq;
  const violation = (what, e) => {
    if (ledger.violations.length < 20) ledger.violations.push(`${what} (seq ${e.seq})`);
    else ledger.violations.length = 20;
  };
  ledger.onEvent = (e) => {
    if (e.event === 'lagged') ledger.lagged++;
    if (e.seq !== undefined) {
      if (lastSeq !== undefined && e.seq !== lastSeq + 1 && e.event !== 'lagged') ledger.seqGaps++;
      lastSeq = e.event === 'lagged' ? e.data.to_seq : e.seq;
    }
    if (e.event === 'user_message') ledger.userMessages++;
    if (e.event === 'compact_start') {
      if (compacting) violation('a compaction started while another had not ended', e);
      compacting = true;
      ledger.compactions++;
    }
    if (e.event === 'compact_done' || e.event === 'compact_failed') {
      if (!compacting) violation(`${e.event} without a compact_start`, e);
      compacting = false;
      ledger[e.event === 'compact_done' ? 'compacted' : 'compactFailed']++;
      if (e.event === 'compact_failed') {
        // The whole reason (a plugin's error names the plugin and the hook before its own message).
        const why = e.data.error.length > 160 ? `${e.data.error.slice(0, 160)}…` : e.data.error;
        ledger.failedBecause[why] = (ledger.failedBecause[why] ?? 0) + 1;
      }
    }
    const terminal = e.event === 'run_end' || (e.event === 'error' && e.request_id === undefined);
    if (terminal) {
      if (!inRun) violation(`a second terminal event (${e.event})`, e);
      inRun = false;
      ledger.terminals++;
    }
    if (e.event !== 'status') return;
    const to = e.data.status;
    if (to === 'running' && status !== 'compacting') {
      if (inRun) violation('a run started while another had no terminal event', e);
      inRun = true;
      ledger.runs++;
    } else if ((to === 'idle' || to === 'paused') && inRun) {
      violation(`the pod became ${to} without a terminal event`, e);
      inRun = false;
    }
    status = to;
  };
  ledger.idle = () => status === 'idle' && !inRun && !compacting;
  return ledger;
}
