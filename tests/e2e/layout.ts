import type { Page } from 'playwright-core'

/** Header items that overlap one another, or a brand name cut off by its box (seen at 320 px once). */
export function headerClashes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const row = document.querySelector('.header-row')
    if (!row) return []
    const clashes: string[] = []
    // A row item squeezed narrower than its content lets the content spill over its neighbour.
    for (const el of row.children as HTMLCollectionOf<HTMLElement>)
      if (el.scrollWidth > el.clientWidth + 1) clashes.push(`"${el.textContent}" does not fit its box`)
    const items = [...row.children]
      .map((el) => ({ name: el.className || el.tagName, r: el.getBoundingClientRect() }))
      .filter((i) => i.r.width > 0 && i.r.height > 0)
    for (const [n, a] of items.entries())
      for (const b of items.slice(n + 1))
        if (
          a.r.left < b.r.right - 1 &&
          b.r.left < a.r.right - 1 &&
          a.r.top < b.r.bottom - 1 &&
          b.r.top < a.r.bottom - 1
        )
          clashes.push(`${a.name} overlaps ${b.name}`)
    return clashes
  })
}
