import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { Splitter, SplitterHandle, SplitterPanel } from './Splitter'

describe('Splitter', () => {
  it('a panel or handle used outside its group throws (spec point 8)', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => renderToString(<SplitterPanel id="a">x</SplitterPanel>)).toThrow(
      'SplitterPanel must be used inside a <Splitter>',
    )
    expect(() => renderToString(<SplitterHandle label="Resize" />)).toThrow(
      'SplitterHandle must be used inside a <Splitter>',
    )
    vi.restoreAllMocks()
  })

  it('renders panels and an accessible separator inside a group', () => {
    const html = renderToString(
      <Splitter id="g">
        <SplitterPanel id="a" defaultSize={30} minSize={20} collapsible>
          A
        </SplitterPanel>
        <SplitterHandle label="Resize A" />
        <SplitterPanel id="b" defaultSize={70}>
          B
        </SplitterPanel>
      </Splitter>,
    )
    expect(html).toContain('role="separator"')
    expect(html).toContain('aria-label="Resize A"')
  })
})
