import { ccPath } from '../../engine/render/control-center-routes'
import { pageTabOf } from './forms/kinds/page-ui'

const id = (path: string, folder: string) => path.slice(folder.length).replace(/\.json$/, '')

/**
 * Where a content file is edited: pages and experiments on their own routes, other definitions in the
 * master–detail Source editor of their list (`&file=`), with the error's pointer to focus.
 */
export function fileUrl(path: string, branch: string, pointer?: string): string {
  const extra: Record<string, string> = pointer !== undefined ? { pointer } : {}
  // A page's error opens the editor tab whose form shows that field (the Source tab for the rest).
  if (path.startsWith('definitions/pages/'))
    return ccPath('page', { page: id(path, 'definitions/pages/') }, branch, {
      tab: pointer ? pageTabOf(pointer) : 'source',
      ...extra,
    })
  if (path.startsWith('definitions/experiments/'))
    return ccPath('experiment', { experiment: id(path, 'definitions/experiments/') }, branch, extra)
  if (path.startsWith('definitions/images/'))
    return ccPath('image', { image: id(path, 'definitions/images/') }, branch)
  // An uploaded image's WebP (`uploads/<id>.<hash>.webp`) belongs to image <id>; other public files to the list.
  if (path.startsWith('ui/public/images/')) {
    const upload = /^ui\/public\/images\/uploads\/([a-z0-9-]+)\.[0-9a-f]{8}\.webp$/.exec(path)
    return upload ? ccPath('image', { image: upload[1] }, branch) : ccPath('images', {}, branch)
  }
  const list = path.startsWith('definitions/articles/')
    ? 'articles'
    : path.startsWith('definitions/authors/')
      ? 'content-factory-authors'
      : path.startsWith('definitions/phone-rules/')
        ? 'phone-rules'
        : 'pages'
  return ccPath(list, {}, branch, { file: path, ...extra })
}
