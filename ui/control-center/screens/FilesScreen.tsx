import type { ControlCenterScreen } from '../../../engine/render/control-center-routes'
import { branchApi } from '../api'
import type { FileRow } from '../api-types'
import { useCc } from '../cc-context'
import { FileDetail } from '../FileDetail'
import { fileUrl } from '../file-links'
import { Empty, ScrollRegion, WithResource } from '../States'
import { useResource } from '../use-resource'

interface ListDef {
  title: string
  kind: string
  empty: string
}

const LISTS: Partial<Record<ControlCenterScreen, ListDef>> = {
  experiments: { title: 'Experiments', kind: 'experiment', empty: 'This branch has no experiments.' },
  experiment: { title: 'Experiment', kind: 'experiment', empty: '' },
  images: { title: 'Images', kind: 'image', empty: 'This branch has no images.' },
  image: { title: 'Image', kind: 'image', empty: '' },
  'phone-rules': { title: 'Phone rules', kind: 'phoneRule', empty: 'This branch has no phone rules.' },
}

/**
 * The definition lists (experiments, images, phone rules): every file of the kind on
 * this branch, with its state and problems, and its JSON in the Source editor (`&file=`).
 */
export default function FilesScreen() {
  const { route, branch: b } = useCc()
  const branch = b as string
  const screen = route.screen as ControlCenterScreen
  const def = LISTS[screen]!
  const q = new URLSearchParams(location.search)
  const file =
    screen === 'experiment'
      ? `definitions/experiments/${route.params.experiment}.json`
      : screen === 'image'
        ? null
        : q.get('file')
  return (
    <div className="cc-page">
      <h1>
        {def.title}
        {screen === 'experiment' && (
          <>
            {' '}
            <code>{route.params.experiment}</code>
          </>
        )}
        {screen === 'image' && (
          <>
            {' '}
            <code>{route.params.image}</code>
          </>
        )}
      </h1>
      {screen === 'image' && <ImageDetail name={route.params.image} />}
      {file && <FileDetail branch={branch} path={file} />}
      {screen !== 'experiment' && screen !== 'image' && (
        <FileList branch={branch} def={def} selected={file} />
      )}
    </div>
  )
}

function ImageDetail({ name }: { name: string }) {
  return (
    <figure className="cc-card cc-image">
      <img src={`/images/${encodeURIComponent(name)}`} alt={`${name} as stored`} />
      <figcaption>
        <code>ui/public/images/{name}</code>
      </figcaption>
    </figure>
  )
}

function FileList({ branch, def, selected }: { branch: string; def: ListDef; selected: string | null }) {
  const { revision } = useCc()
  const files = useResource<{ files: FileRow[] }>(branchApi(branch, `/files?kind=${def.kind}`), revision)
  return (
    <WithResource resource={files} what={def.title.toLowerCase()}>
      {(d) =>
        d.files.length === 0 ? (
          <Empty>{def.empty}</Empty>
        ) : (
          <ScrollRegion label="Files">
            <table className="cc-table" data-testid="file-table">
              <thead>
                <tr>
                  <th scope="col">Id</th>
                  <th scope="col">File</th>
                  <th scope="col">State</th>
                  <th scope="col">Problems</th>
                </tr>
              </thead>
              <tbody>
                {d.files.map((f) => (
                  <tr key={f.path} aria-current={f.path === selected ? 'true' : undefined}>
                    <td>
                      <a href={fileUrl(f.path, branch)}>{f.id}</a>
                    </td>
                    <td>
                      <code>{f.path}</code>
                    </td>
                    <td>
                      {f.state === 'unchanged' ? '' : f.state}
                      {f.draft && <span className="cc-chip cc-chip-draft">my draft</span>}
                    </td>
                    <td>{f.problems ? <span className="cc-chip cc-chip-error">{f.problems}</span> : '0'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )
      }
    </WithResource>
  )
}
