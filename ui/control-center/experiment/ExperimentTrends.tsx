/** The experiment's trend charts: daily exposures and per-step reach, each with its numbers in a table. */
import { GroupedBars, Legend, LineChart, niceTicks, variantColor } from '../ExperimentCharts'
import { pct } from '../experiment-format'

/** Exposures per day and variant (a visual sample-ratio check), with the numbers in a table. */
export function DailyExposures({
  daily,
  variants,
}: {
  daily: { day: string; variant: string; users: number }[]
  variants: string[]
}) {
  const days = [...new Set(daily.map((d) => d.day))].sort()
  const series = variants.map((id, i) => ({
    id,
    color: variantColor(i),
    points: daily.filter((d) => d.variant === id).map((d) => ({ x: d.day, y: d.users })),
  }))
  return (
    <figure className="cc-exp-figure">
      <figcaption className="cc-h3">Daily exposures</figcaption>
      {days.length === 0 ? (
        <p className="muted">No exposures in this phase yet.</p>
      ) : (
        <>
          <Legend ids={variants} />
          {days.length <= 21 ? (
            <GroupedBars
              groups={days.map((d) => ({ key: d, label: d.slice(5), short: d.slice(8) }))}
              ids={variants}
              value={(g, v) => daily.find((x) => x.day === days[g] && x.variant === variants[v])?.users ?? 0}
              ticks={niceTicks(Math.max(1, ...daily.map((d) => d.users)))}
              format={(t) => t.toLocaleString('en-US')}
              label="New users per day and variant (UTC days)"
              desc={series
                .map((s) => `${s.id}: ${s.points.map((p) => `${p.x} ${p.y}`).join(', ')}`)
                .join('; ')}
            />
          ) : (
            <LineChart
              series={series}
              xs={days}
              label="New users per day and variant (UTC days)"
              yLabel="users"
            />
          )}
          <details className="cc-exp-data">
            <summary>Daily exposures as a table</summary>
            <table className="cc-table">
              <thead>
                <tr>
                  <th scope="col">Day (UTC)</th>
                  {variants.map((v) => (
                    <th key={v} scope="col">
                      {v}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {days.map((d) => (
                  <tr key={d}>
                    <th scope="row">{d}</th>
                    {variants.map((v) => (
                      <td key={v}>
                        {(daily.find((x) => x.day === d && x.variant === v)?.users ?? 0).toLocaleString(
                          'en-US',
                        )}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </figure>
  )
}

/**
 * How far each variant's users got: exposed, each funnel step submitted, lead — as a share of the
 * variant's users, grouped bars per stage.
 */
export function StepReach({
  steps,
  variants,
}: {
  steps: { variant: string; step: number; users: number }[]
  variants: { id: string; users: number; leads: number }[]
}) {
  const top = Math.max(0, ...steps.map((s) => s.step))
  const stages = [
    { key: 'exposed', label: 'Exposed', short: 'Exp.', of: (v: { users: number }) => v.users },
    ...Array.from({ length: top }, (_, i) => ({
      key: `step-${i + 1}`,
      label: `Step ${i + 1}`,
      short: `S${i + 1}`,
      of: (v: { id: string }) => steps.find((s) => s.variant === v.id && s.step === i + 1)?.users ?? 0,
    })),
    { key: 'lead', label: 'Lead', short: 'Lead', of: (v: { leads: number }) => v.leads },
  ]
  const share = (n: number, v: { users: number }) => (v.users ? n / v.users : 0)
  const label = 'Share of each variant’s users reaching each funnel stage'
  return (
    <figure className="cc-exp-figure">
      <figcaption className="cc-h3">Per-step reach</figcaption>
      {variants.every((v) => v.users === 0) ? (
        <p className="muted">No users in this phase yet.</p>
      ) : (
        <>
          <Legend ids={variants.map((v) => v.id)} />
          <GroupedBars
            groups={stages}
            ids={variants.map((v) => v.id)}
            value={(g, v) => share(stages[g].of(variants[v]), variants[v])}
            ticks={[0, 0.25, 0.5, 0.75, 1]}
            format={(t) => `${t * 100}%`}
            label={label}
            desc={stages
              .map(
                (s) => `${s.label}: ${variants.map((v) => `${v.id} ${pct(share(s.of(v), v))}`).join(', ')}`,
              )
              .join('; ')}
          />
          <details className="cc-exp-data">
            <summary>Per-step reach as a table</summary>
            <table className="cc-table">
              <thead>
                <tr>
                  <th scope="col">Stage</th>
                  {variants.map((v) => (
                    <th key={v.id} scope="col">
                      {v.id}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {stages.map((s) => (
                  <tr key={s.key}>
                    <th scope="row">{s.label}</th>
                    {variants.map((v) => (
                      <td key={v.id}>
                        {s.of(v).toLocaleString('en-US')}{' '}
                        <span className="muted">({pct(share(s.of(v), v))})</span>
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </figure>
  )
}
