/**
 * The targets a bench checks (docs/decisions/0214). A bench calls `check` for each target it measures;
 * `npm run bench` prints every missed or unmeasured target at the end, naming the bench, and exits 1.
 */
export interface TargetVerdict {
  bench: string
  what: string
  /** The figure measured, with its unit ("1620 ms"); "—" when not measured. */
  value: string
  /** The target ("≤ 1500 ms"). */
  limit: string
  /** null: the bench could not measure it (that fails too: a bench that skips cannot guard). */
  met: boolean | null
}

export class BenchTargets {
  readonly verdicts: TargetVerdict[] = []

  constructor(public bench = '') {}

  /** Records a verdict; returns the word to print beside the figure. */
  check(what: string, value: string, limit: string, met: boolean | null): 'met' | 'MISSED' | 'NOT MEASURED' {
    this.verdicts.push({ bench: this.bench, what, value, limit, met })
    return met === null ? 'NOT MEASURED' : met ? 'met' : 'MISSED'
  }

  failed(): TargetVerdict[] {
    return this.verdicts.filter((v) => v.met !== true)
  }

  /** The closing lines of a run: how many targets were met, then each one that was not. */
  summary(): string[] {
    const failed = this.failed()
    return [
      `targets: ${this.verdicts.length - failed.length} of ${this.verdicts.length} met`,
      ...failed.map(
        (v) =>
          `  ${v.met === null ? 'NOT MEASURED' : 'MISSED'}: ${v.bench}: ${v.what}: ${v.value} (target ${v.limit})`,
      ),
    ]
  }
}
