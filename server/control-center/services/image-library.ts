/**
 * The control center's images on a branch (CONTROL-CENTER §1.4 "/images", §3 "Image",
 * docs/decisions/0920): list with "used by", upload, edit alt text, replace, delete. Every write is
 * one commit holding the WebP bytes, the image's definition and (on replace) every reference.
 */
import { IMAGE_HASH_LENGTH, IMAGE_UPLOADS_URL } from '../../../engine/content/image-limits'
import { type ImageUse, imageUsage, srcPointers } from '../../../engine/control-center/content/image-usage'
import { assertCan } from '../../../engine/control-center/content/permissions'
import { setField } from '../../../engine/control-center/content/set-field'
import type { ImageRow as GeneratedImageRow, ImageList } from '../../../schemas/generated/cc-answers/images'
import type { UploadedImage } from '../../../schemas/generated/image'
import type { ContentRepository } from '../../content/content-repository'
import { branchRef, LIVE_BRANCH } from '../../content/git/branch-name'
import type { FileChange } from '../../content/git/content-repo'
import { CONTENT_IMAGES } from '../../content/git/import-content'
import type { GitSnapshotSource } from '../../content/git-snapshot-source'
import { auditWithId, nextAuditId, type StaffUser } from '../../store/auth-store'
import type { Db } from '../../store/db'
import { authorOf, type BranchService, commitMessage } from './branch-service'
import { ContentError } from './content-errors'
import { encodeImage } from './image-pipeline'

export const IMAGE_DEFINITIONS = 'definitions/images'
const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const ID_MAX_LENGTH = 60

/** An image of a branch as the images screen (and the page form's image picker) shows it (schemas/cc-answers/images.schema.json). */
export type ImageRow = GeneratedImageRow

export type { ImageList }

export const imagePath = (id: string) => `${IMAGE_DEFINITIONS}/${id}.json`
const filePath = (src: string) => `${CONTENT_IMAGES}${src.slice('/images'.length)}`

/** An image id from an uploaded file's name: `Hero Photo (1).JPG` → `hero-photo-1`. */
export function imageIdFromName(filename: string): string {
  const id = filename
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, ID_MAX_LENGTH)
    .replace(/-+$/, '')
  return id || 'image'
}

function checkId(id: string): void {
  if (!ID.test(id) || id.length > ID_MAX_LENGTH)
    throw new ContentError(
      400,
      `image id "${id}": use lowercase letters, digits and single dashes (at most ${ID_MAX_LENGTH} characters)`,
    )
}

const json = (doc: UploadedImage) => `${JSON.stringify(doc, null, 2)}\n`

export class ImageLibrary {
  constructor(
    readonly content: ContentRepository,
    readonly branches: BranchService,
    readonly source: GitSnapshotSource,
    readonly db: Db,
  ) {}

  /** Every image of a commit with its uses. */
  async #at(head: string): Promise<{ images: ImageRow[]; files: { path: string; text: string }[] }> {
    const { files, assets } = await this.source.files(head)
    const docs: { path: string; doc: UploadedImage }[] = []
    for (const f of files) {
      if (!f.path.startsWith(`${IMAGE_DEFINITIONS}/`)) continue
      try {
        const doc = JSON.parse(f.text) as UploadedImage
        if (doc && typeof doc === 'object' && typeof doc.src === 'string') docs.push({ path: f.path, doc })
      } catch {
        // An unparsable image file shows in the branch's problems, not here.
      }
    }
    const usage = imageUsage(
      files,
      docs.map((d) => d.doc.src),
    )
    const images = docs
      .map(({ path, doc }) => ({
        ...doc,
        path,
        usedBy: usage.get(doc.src) ?? [],
        missing: !assets.has(doc.src),
      }))
      .sort((a, b) => a.id.localeCompare(b.id))
    return { images, files }
  }

  /** The images of a branch head (committed content), each with where it is used. */
  async list(branch: string): Promise<ImageList> {
    const head = await this.branches.head(branch)
    return { head, images: (await this.#at(head)).images }
  }

  async get(branch: string, id: string): Promise<ImageRow & { head: string }> {
    const { head, images } = await this.list(branch)
    const image = images.find((i) => i.id === id)
    if (!image) throw new ContentError(404, `unknown image "${id}" on branch "${branch}"`)
    return { ...image, head }
  }

  /** Re-encodes an upload and commits the WebP and its definition as one commit. */
  async upload(
    user: StaffUser,
    branch: string,
    input: {
      bytes: Buffer
      filename: string
      id?: string
      alt?: string
      decorative?: boolean
      credit?: string
    },
  ): Promise<{ image: ImageRow; commit: string }> {
    this.#writable(user, branch)
    if (input.id !== undefined) checkId(input.id)
    const encoded = await encodeImage(input.bytes, input.filename)
    return this.#commit(user, branch, 'image.upload', async (head) => {
      const taken = new Set((await this.#at(head)).images.map((i) => i.id))
      let id = input.id ?? imageIdFromName(input.filename)
      if (input.id !== undefined && taken.has(id))
        throw new ContentError(409, `image "${id}" already exists on branch "${branch}"; replace it instead`)
      if (taken.has(id) || (await this.content.repo.blobAt(head, imagePath(id)))) {
        const stem = id.slice(0, ID_MAX_LENGTH - 4)
        let n = 2
        while (taken.has(`${stem}-${n}`)) n++
        id = `${stem}-${n}`
      }
      const src = `${IMAGE_UPLOADS_URL}${id}.${encoded.sha256.slice(0, IMAGE_HASH_LENGTH)}.webp`
      const doc: UploadedImage = {
        $schema: '../../schemas/image.schema.json',
        id,
        src,
        alt: input.decorative ? '' : (input.alt ?? '').trim(),
        decorative: input.decorative ?? false,
        width: encoded.width,
        height: encoded.height,
        bytes: encoded.webp.length,
        sha256: encoded.sha256,
        originalName: input.filename.slice(0, 255) || 'upload',
        ...(input.credit?.trim() ? { credit: input.credit.trim() } : {}),
      }
      return {
        changes: [
          { path: filePath(src), content: encoded.webp },
          { path: imagePath(id), content: json(doc) },
        ],
        subject: `Upload image ${id}`,
        body: `${input.filename} → ${src} (${encoded.width}×${encoded.height}, ${encoded.webp.length} bytes)`,
        details: { image: id, src },
        result: { ...doc, path: imagePath(id), usedBy: [], missing: false },
      }
    })
  }

  /** Changes alt text, decorative and credit (one field each, the rest of the file as written). */
  async update(
    user: StaffUser,
    branch: string,
    id: string,
    input: { alt?: string; decorative?: boolean; credit?: string; expectedHead?: string },
  ): Promise<{ image: ImageRow; commit: string }> {
    this.#writable(user, branch)
    return this.#commit(
      user,
      branch,
      'image.update',
      async (head) => {
        const image = await this.#find(head, branch, id)
        const decorative = input.decorative ?? image.decorative ?? false
        const alt = decorative ? '' : (input.alt ?? image.alt).trim()
        if (!decorative && !alt) throw new ContentError(422, 'alt: describe the image, or mark it decorative')
        let text = (await this.content.repo.readText(`${head}:${image.path}`)) ?? json(image)
        text = setField(text, '/alt', alt)
        text = setField(text, '/decorative', decorative)
        if (input.credit !== undefined) text = setField(text, '/credit', input.credit.trim() || undefined)
        const credit = input.credit !== undefined ? input.credit.trim() || undefined : image.credit
        return {
          changes: [{ path: image.path, content: text }],
          subject: `Image ${id}: ${decorative ? 'decorative' : 'alt text'}`,
          body: '',
          details: { image: id },
          result: { ...image, alt, decorative, credit },
        }
      },
      input.expectedHead,
    )
  }

  /** A new file for an existing image: same id, new hashed src; every reference follows in the same commit. */
  async replace(
    user: StaffUser,
    branch: string,
    id: string,
    input: { bytes: Buffer; filename: string },
  ): Promise<{ image: ImageRow; commit: string; updated: string[] }> {
    this.#writable(user, branch)
    const encoded = await encodeImage(input.bytes, input.filename)
    let updated: string[] = []
    const r = await this.#commit(user, branch, 'image.replace', async (head) => {
      const { images, files } = await this.#at(head)
      const image = images.find((i) => i.id === id)
      if (!image) throw new ContentError(404, `unknown image "${id}" on branch "${branch}"`)
      const src = `${IMAGE_UPLOADS_URL}${id}.${encoded.sha256.slice(0, IMAGE_HASH_LENGTH)}.webp`
      if (src === image.src)
        throw new ContentError(409, `"${input.filename}" is the same image "${id}" already has`)
      const changes: FileChange[] = [
        { path: filePath(src), content: encoded.webp },
        { path: filePath(image.src), content: null },
      ]
      let text = (await this.content.repo.readText(`${head}:${image.path}`)) ?? json(image)
      const fields = {
        src,
        width: encoded.width,
        height: encoded.height,
        bytes: encoded.webp.length,
        sha256: encoded.sha256,
        originalName: input.filename.slice(0, 255) || 'upload',
      }
      for (const [k, v] of Object.entries(fields)) text = setField(text, `/${k}`, v)
      changes.push({ path: image.path, content: text })
      const old = new Set([image.src])
      for (const path of [...new Set(image.usedBy.map((u) => u.path))]) {
        let t = files.find((f) => f.path === path)!.text
        for (const { pointer } of srcPointers(JSON.parse(t), old)) {
          t = setField(t, `${pointer}/src`, src)
          t = setField(t, `${pointer}/width`, encoded.width)
          t = setField(t, `${pointer}/height`, encoded.height)
        }
        changes.push({ path, content: t })
      }
      updated = [...new Set(image.usedBy.map((u) => u.path))]
      return {
        changes,
        subject: `Replace image ${id}`,
        body: `${input.filename} → ${src} (${encoded.width}×${encoded.height}); was ${image.src}.${updated.length ? `\nReferences updated: ${updated.join(', ')}` : ''}`,
        details: { image: id, from: image.src, src },
        result: { ...image, ...fields },
      }
    })
    return { ...r, updated }
  }

  /** Deletes an image's definition and file; refused (ImageInUseError, 409) while anything uses it. */
  async remove(
    user: StaffUser,
    branch: string,
    id: string,
    expectedHead?: string,
  ): Promise<{ commit: string }> {
    this.#writable(user, branch)
    const r = await this.#commit(
      user,
      branch,
      'image.delete',
      async (head) => {
        const image = await this.#find(head, branch, id)
        if (image.usedBy.length) throw new ImageInUseError(id, image.usedBy)
        return {
          changes: [
            { path: image.path, content: null },
            { path: filePath(image.src), content: null },
          ],
          subject: `Delete image ${id}`,
          body: '',
          details: { image: id, src: image.src },
          result: image,
        }
      },
      expectedHead,
    )
    return { commit: r.commit }
  }

  async #find(head: string, branch: string, id: string): Promise<ImageRow> {
    const image = (await this.#at(head)).images.find((i) => i.id === id)
    if (!image) throw new ContentError(404, `unknown image "${id}" on branch "${branch}"`)
    return image
  }

  #writable(user: StaffUser, branch: string): void {
    if (branch === LIVE_BRANCH)
      throw new ContentError(400, 'live is read-only: create a branch to change images')
    assertCan(user, 'branch.edit')
  }

  /** One commit on the branch from `edit(head)`, with a compare-and-swap of its head and an audit row. */
  async #commit<T>(
    user: StaffUser,
    branch: string,
    action: string,
    edit: (head: string) => Promise<{
      changes: FileChange[]
      subject: string
      body: string
      details: Record<string, unknown>
      result: T
    }>,
    expectedHead?: string,
  ): Promise<{ image: T; commit: string }> {
    const repository = this.content
    return repository.exclusive(async () => {
      await repository.sync()
      const head = await this.branches.head(branch)
      if (expectedHead && expectedHead !== head)
        throw new ContentError(
          409,
          `branch "${branch}" changed since you looked: head is ${head.slice(0, 12)}, not ${expectedHead.slice(0, 12)}`,
        )
      const { changes, subject, body, details, result } = await edit(head)
      assertCan(user, 'branch.edit', { paths: changes.map((c) => c.path) })
      const auditId = await nextAuditId(this.db)
      const commit = await repository.repo.commitFiles(
        head,
        changes,
        commitMessage(subject, user, auditId, body),
        authorOf(user),
      )
      await repository.moveRef(branchRef(branch), commit, head)
      await auditWithId(this.db, auditId, {
        actor: user.id,
        action,
        target: branch,
        details: { ...details, paths: changes.map((c) => c.path), from: head, to: commit },
      })
      return { image: result, commit }
    })
  }
}

/** Delete refused: the image is still used (409 with the list). */
export class ImageInUseError extends ContentError {
  constructor(
    readonly id: string,
    readonly usedBy: ImageUse[],
  ) {
    super(
      409,
      `image "${id}" is used by ${usedBy.map((u) => `${u.kind} "${u.id}" (${u.pointer})`).join(', ')}; remove it there first`,
    )
  }
}
