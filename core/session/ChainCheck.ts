import { lineHashMatches, parseChainedLine } from './chainedLine.js';

/**
 * `intact`: every hashed line checked matches its content and follows the one before it;
 * `broken`: one does not (the log was changed after it was written); `unchained`: the log was
 * written before session logs were hash-chained (its first entry has no hash).
 */
export type ChainStatus = 'intact' | 'broken' | 'unchained';

export interface ChainBreak {
  /** 1-based line number in the file; when only the file's end was read, `fromEnd` instead. */
  readonly line?: number;
  /** 1: the last line. */
  readonly fromEnd?: number;
  readonly reason: string;
}

export interface ChainReport {
  readonly status: ChainStatus;
  /** The first break found. */
  readonly break?: ChainBreak;
  /** Hashed lines checked. */
  readonly hashed: number;
  /** Hash of the last hashed line: what the next appended line follows (null: none yet). */
  readonly head: Buffer | null;
}

/**
 * Checks a session log's hash chain line by line, in file order. Lines that are not entries
 * (garbage; a torn line a crash left, which a later restore wrote past) are not part of the chain
 * and break nothing as long as the next hashed line follows the last good one: readers skip and
 * count them. A line that is an entry but not in the chain — altered, inserted, unhashed in a
 * chained log, following the wrong line — is a break. After a break the check carries on from
 * the line that broke, so what was appended later is still checked.
 */
export class ChainCheck {
  private head: Buffer | null = null;
  private started = false;
  private unchainedStart = false;
  private hashedSeen = false;
  private firstBreak: ChainBreak | undefined;
  private hashedCount = 0;

  /**
   * `midChain`: the lines checked start somewhere in the file (its tail), after a first line that
   * was `unchained` or not; the first hashed line is then taken as it is.
   */
  constructor(private readonly midChain?: { unchainedStart: boolean }) {
    if (midChain) {
      this.started = true;
      this.unchainedStart = midChain.unchainedStart;
    }
  }

  /**
   * One non-blank line (without its newline); `entry`: it reads as a session entry. `lineNo`: its
   * line number, or for a tail a negative number counting from the end (-1: the last line).
   */
  add(lineNo: number, line: Buffer, entry: boolean): void {
    const parsed = parseChainedLine(line);
    if (!parsed) {
      if (!entry) return;
      if (!this.started) {
        this.started = true;
        this.unchainedStart = true;
        return;
      }
      if (this.unchainedStart && !this.hashedSeen) return; // a log from before hashing
      this.breakAt(lineNo, 'it has no hash (it was not written by yoi, or rewritten)');
      return;
    }
    if (!lineHashMatches(parsed)) {
      if (!entry) return;
      this.breakAt(lineNo, 'its hash does not match its content (it was altered)');
      this.follow(parsed.hash);
      return;
    }
    const first = !this.hashedSeen;
    if (first && this.midChain) {
      // the first hashed line of a tail: what it follows was not read
    } else if (!this.started || (this.unchainedStart && first)) {
      this.started = true;
      if (parsed.prev !== null)
        this.breakAt(lineNo, 'it follows a line that is not in the log (lines before it were removed)');
    } else if (!sameHash(parsed.prev, this.head)) {
      this.breakAt(
        lineNo,
        parsed.prev === null
          ? 'it starts a new chain in the middle of the log (lines were replaced or inserted)'
          : 'it does not follow the line before it (a line was removed, inserted or altered)',
      );
    }
    this.follow(parsed.hash);
  }

  report(): ChainReport {
    const status: ChainStatus = this.firstBreak ? 'broken' : this.unchainedStart ? 'unchained' : 'intact';
    return {
      status,
      ...(this.firstBreak ? { break: this.firstBreak } : {}),
      hashed: this.hashedCount,
      head: this.head,
    };
  }

  private follow(hash: Buffer): void {
    this.started = true;
    this.head = hash;
    this.hashedSeen = true;
    this.hashedCount++;
  }

  private breakAt(line: number, reason: string): void {
    this.firstBreak ??= line > 0 ? { line, reason } : { fromEnd: -line, reason };
  }
}

function sameHash(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b);
}

/** One line for a chain report: `intact (12 lines)`, `broken at line 7: …`, `unchained (…)`. */
export function describeChain(report: Pick<ChainReport, 'status' | 'break'>): string {
  const from = report.break?.fromEnd ?? 1;
  const at =
    report.break?.line !== undefined
      ? `at line ${report.break.line}`
      : from === 1
        ? 'at the last line'
        : `at line ${from} from the end`;
  if (report.status === 'broken' && report.break) return `broken ${at}: ${report.break.reason}`;
  if (report.status === 'unchained') return 'unchained (written before session logs were hash-chained)';
  return 'intact';
}
