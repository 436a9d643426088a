/** Who uses a shared step: the funnels listing it, the pages running those funnels, their brands. */
export interface StepUsage {
  funnels: { id: string; pages: { key: string; brands: string[]; experiment: string | null }[] }[]
  brands: string[]
  pages: number
}

export function stepUsage(
  stepId: string,
  funnels: readonly { id: string; steps: readonly string[] }[],
  pages: readonly { key: string; form: string | null; brands: string[]; experiment: string | null }[],
): StepUsage {
  const using = funnels.filter((f) => f.steps.includes(stepId))
  const rows = using.map((f) => ({
    id: f.id,
    pages: pages
      .filter((p) => p.form === f.id)
      .map((p) => ({ key: p.key, brands: p.brands, experiment: p.experiment })),
  }))
  const brands = [...new Set(rows.flatMap((f) => f.pages.flatMap((p) => p.brands)))].sort()
  return { funnels: rows, brands, pages: rows.reduce((n, f) => n + f.pages.length, 0) }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** "Shared by 7 funnels on 6 brands" (or "Used only by this funnel"). */
export function usageHeadline(u: StepUsage): string {
  return `Shared by ${plural(u.funnels.length, 'funnel')} on ${plural(u.brands.length, 'brand')}`
}

/** The next form version: `x-3` after `x-2`, else `-2` appended. */
export function bumpFormVersion(v: string): string {
  const m = /^(.*-)(\d+)$/.exec(v)
  return m ? `${m[1]}${Number(m[2]) + 1}` : `${v}-2`
}
