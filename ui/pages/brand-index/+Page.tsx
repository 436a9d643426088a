import { useResolution } from '../../shell/resolution-context'

/** Shown on a bare localhost so a newcomer finds the brands (never on a real domain). */
export default function Page() {
  const { brandIndex } = useResolution()
  return (
    <div className="container narrow">
      <h1>funnelworks — local brands</h1>
      <p>Each brand is served on its own host. Open one:</p>
      <ul className="brand-index">
        {(brandIndex ?? []).map((b) => (
          <li key={b.id}>
            <a href={b.href}>
              <strong>{b.name}</strong>{' '}
              <span className="muted">
                ({b.id}, {b.vertical})
              </span>
              <br />
              <code>{b.href}</code>
            </a>
          </li>
        ))}
      </ul>
      <p className="muted">Turn this index off with BRAND_INDEX=off.</p>
    </div>
  )
}
