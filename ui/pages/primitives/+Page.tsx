import { useEffect, useState } from 'react'
import { startLoading } from '../../islands/loading-bar-island'
import { HoverCard } from '../../primitives/HoverCard'
import { Progress } from '../../primitives/Progress'
import { Select } from '../../primitives/Select'
import { Splitter, SplitterHandle, SplitterPanel } from '../../primitives/Splitter'
import { Switch } from '../../primitives/Switch'
import { Toggle } from '../../primitives/Toggle'
import { Tooltip } from '../../primitives/Tooltip'
import { useRuntime } from '../../runtime/runtime-context'
import { scrollAfterRouteChange } from '../../runtime/scroll'

const STATES = [
  { value: 'CA', label: 'California' },
  { value: 'FL', label: 'Florida' },
  { value: 'NY', label: 'New York' },
  { value: 'TX', label: 'Texas' },
  { value: 'WA', label: 'Washington' },
]

/** Style guide of the UI primitives (control center only, docs/decisions/0500); e2e tests drive it. */
export default function Page() {
  const [progress, setProgress] = useState(30)
  const [submitted, setSubmitted] = useState<string | null>(null)
  const [note, setNote] = useState<string | null>(null)
  const [crash, setCrash] = useState(false)
  const [step, setStep] = useState(1)
  const runtime = useRuntime()
  useEffect(() => {
    const q = new URLSearchParams(location.search)
    if (q.has('submitted')) setSubmitted(q.getAll('notify').join(',') || '(none)')
  }, [])
  if (crash) throw new Error('Style guide crash on purpose')
  return (
    <div className="container primitives-page">
      <h1>UI primitives</h1>
      <p className="muted">Every primitive the funnels and the control center build on, in one place.</p>

      <section aria-labelledby="tooltip-h">
        <h2 id="tooltip-h">Tooltip</h2>
        <div className="row">
          <Tooltip content="Your ZIP code decides which plans you can join.">
            <button type="button" className="button" data-testid="tip-a">
              Why ZIP?
            </button>
          </Tooltip>
          <Tooltip content="We never sell your phone number.">
            <button type="button" className="button" data-testid="tip-b">
              Why phone?
            </button>
          </Tooltip>
          <Tooltip content="Shown on the right." side="right">
            <button type="button" className="button" data-testid="tip-c">
              Right side
            </button>
          </Tooltip>
        </div>
      </section>

      <section aria-labelledby="hover-h">
        <h2 id="hover-h">Hover card</h2>
        <HoverCard
          label="About Medicare Advantage"
          content={<p>Plans from private insurers approved by Medicare.</p>}
        >
          <a href="#hover-h" data-testid="hover-trigger">
            Medicare Advantage
          </a>
        </HoverCard>
      </section>

      <section aria-labelledby="form-h">
        <h2 id="form-h">Select, switch and toggle in a form</h2>
        <form method="get" action="/_primitives" className="stack" data-testid="native-form">
          <input type="hidden" name="submitted" value="1" />
          <Select label="State" name="state" options={STATES} placeholder="Choose your state" />
          <Switch label="Text me plan updates" name="notify" data-testid="switch" />
          <Toggle data-testid="toggle" aria-label="Bold text">
            B
          </Toggle>
          <button type="submit" className="button button-primary">
            Submit
          </button>
        </form>
        {submitted !== null && <p data-testid="submitted">Switch posted: {submitted}</p>}
      </section>

      <section aria-labelledby="progress-h">
        <h2 id="progress-h">Progress and loading indicator</h2>
        <Progress value={progress} label="Quiz progress" />
        <div className="row">
          <button type="button" className="button" onClick={() => setProgress((p) => Math.max(0, p - 20))}>
            Back
          </button>
          <button type="button" className="button" onClick={() => setProgress((p) => Math.min(100, p + 20))}>
            Forward
          </button>
          <button
            type="button"
            className="button"
            onClick={() => {
              const done = startLoading()
              setTimeout(done, 1_200)
            }}
          >
            Simulate a slow navigation
          </button>
        </div>
      </section>

      <section aria-labelledby="splitter-h">
        <h2 id="splitter-h">Splitter</h2>
        <Splitter id="demo-splitter" storageKey="primitives-splitter">
          <SplitterPanel id="nav" defaultSize={30} minSize={20} collapsible collapsedSize={0}>
            <div className="pane">Navigation (collapsible)</div>
          </SplitterPanel>
          <SplitterHandle label="Resize navigation" />
          <SplitterPanel id="content" defaultSize={70} minSize={30}>
            <div className="pane">Content</div>
          </SplitterPanel>
        </Splitter>
      </section>

      <section aria-labelledby="runtime-h">
        <h2 id="runtime-h">Client runtime</h2>
        <div className="row">
          <button
            type="button"
            className="button"
            data-testid="load-chunk"
            onClick={() => import('./lazy-note').then((m) => setNote(m.lazyNote))}
          >
            Load a chunk
          </button>
          <button
            type="button"
            className="button"
            data-testid="next-step"
            onClick={() => {
              const next = step + 1
              // A pending reload (new build after a chunk failure) turns this into a full page load.
              if (!runtime?.navigate(`/_primitives?step=${next}`, { state: {} })) return
              setStep(next)
              scrollAfterRouteChange(location.hash)
            }}
          >
            Next step ({step})
          </button>
          <button type="button" className="button" data-testid="crash" onClick={() => setCrash(true)}>
            Crash the page
          </button>
        </div>
        {note && <p data-testid="note">{note}</p>}
      </section>
    </div>
  )
}
