import { describe, expect, it } from 'vitest'
import type { Article } from '../../engine/content/articles'
import { renderArticleHtml } from './article-view'

const article = (body: Article['body']): Article => ({
  id: 'x',
  title: 'T',
  description: 'D',
  author: 'a',
  date: '2026-01-01',
  carrier: 'C',
  body,
})

describe('article Markdown → HTML', () => {
  it('renders headings, lists, tables and safe links; a list of lines is joined', () => {
    const html = renderArticleHtml(
      article([
        '## Heading',
        '',
        '- one',
        '- two',
        '',
        '| a | b |',
        '| --- | --- |',
        '| 1 | 2 |',
        '',
        '[in](/go-4-benefits) [out](https://medicare.gov)',
      ]),
    )
    expect(html).toContain('<h2>Heading</h2>')
    expect(html).toContain('<li>one</li>')
    expect(html).toContain('<td>1</td>')
    expect(html).toContain('<a href="/go-4-benefits">in</a>')
    expect(html).toContain('<a href="https://medicare.gov" rel="noopener noreferrer">out</a>')
  })

  it('shows raw HTML as text and drops unsafe links and images', () => {
    const html = renderArticleHtml(
      article(
        '<script>alert(1)</script>\n\n[click](javascript:alert(1)) ![pic](https://x.test/a.png) <img src=x onerror=alert(1)>',
      ),
    )
    expect(html).not.toMatch(/<script|<img|javascript:/i)
    expect(html).toContain('&lt;script&gt;')
    expect(html).toContain('click')
    expect(html).toContain('pic')
  })
})
