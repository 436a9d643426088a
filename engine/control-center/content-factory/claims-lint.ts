/**
 * The claims lint (CONTROL-CENTER §5): phrases an insurance article must not use without care —
 * guarantees, "free money", invented monthly amounts, private plans called government programs.
 * Hits are warnings at their line, shown on the draft; a person decides.
 */
export interface ClaimWarning {
  /** 1-based line of the body. */
  line: number
  phrase: string
  message: string
}

const RULES: { pattern: RegExp; message: string }[] = [
  { pattern: /\bguarantee[ds]?\b/i, message: 'no guarantees: benefits vary by plan and county' },
  { pattern: /\bfree money\b/i, message: '"free money" misleads: say what the benefit is and who pays it' },
  {
    pattern: /\$\s?\d[\d,]*(?:\.\d+)?\s*(?:a|per|every)\s*month\b/i,
    message: 'a monthly amount needs a source (a plan document) or must go',
  },
  {
    pattern: /\bgovernment (?:program|benefit|check)\b/i,
    message: 'a Medicare Advantage benefit is a private plan benefit, not a government program',
  },
  {
    pattern: /\beveryone (?:qualifies|is eligible)\b/i,
    message: 'eligibility depends on the plan, the county and the person',
  },
]

export function lintClaims(lines: readonly string[]): ClaimWarning[] {
  const out: ClaimWarning[] = []
  lines.forEach((text, i) => {
    for (const rule of RULES) {
      const m = rule.pattern.exec(text)
      if (m) out.push({ line: i + 1, phrase: m[0], message: rule.message })
    }
  })
  return out
}
