/**
 * The control center's images API from the browser (server/api/control-center/images.ts): the list
 * (also what a page form's image picker offers: `listImages`, `toImageField`) and uploads with
 * progress. Uploads send the file's bytes as they are, one request per file; the server decides
 * what they are.
 */
import type { ImageList, ImageRow, ImageUse } from '../../schemas/generated/cc-answers/images'
import type { Image } from '../../schemas/generated/common'
import type { UploadedImage } from '../../schemas/generated/image'
import { type Api, ApiError, branchApi } from './api'

export type { ImageList, ImageRow, ImageUse }

/** What the upload zone's file picker offers (the server sniffs the bytes anyway). */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,image/avif'

/** "1.2 MB", "340 KB". */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`
  return `${Math.max(1, Math.round(n / 1024))} KB`
}

/** An image that still needs alt text (not decorative, none written). */
export const needsAlt = (i: { alt: string; decorative?: boolean }) => !i.decorative && !i.alt.trim()

export const imagesUrl = (branch: string, tail = '') => branchApi(branch, `/images${tail}`)

/** The images of a branch, for the images screen and the page form's image picker. */
export async function listImages(api: Api, branch: string): Promise<ImageRow[]> {
  return (await api<ImageList>('GET', imagesUrl(branch))).images
}

/** A page's (or variant's, article's) `image` field filled from an uploaded image: src, alt, width, height. */
export function toImageField(image: UploadedImage): Image {
  return {
    src: image.src,
    alt: image.decorative ? '' : image.alt,
    width: image.width,
    height: image.height,
  }
}

/**
 * Sends one file (POST a new image, or PUT `/images/:id/file` to replace one) with upload progress
 * (0–1); resolves the server's answer or rejects with its message as an ApiError.
 */
export function sendImage<T>(
  url: string,
  method: 'POST' | 'PUT',
  file: File,
  onProgress: (fraction: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open(method, url)
    xhr.withCredentials = true
    // A type a cross-site form cannot send; the server reads the real type from the bytes.
    xhr.setRequestHeader(
      'Content-Type',
      file.type.startsWith('image/') ? file.type : 'application/octet-stream',
    )
    xhr.setRequestHeader('X-Filename', encodeURIComponent(file.name))
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total)
    }
    xhr.onerror = () => reject(new ApiError(0, 'the upload did not reach the server (network error)', null))
    xhr.onload = () => {
      let json: unknown = null
      try {
        json = xhr.responseText ? JSON.parse(xhr.responseText) : null
      } catch {}
      if (xhr.status >= 200 && xhr.status < 300) resolve(json as T)
      else {
        const b = json as ApiError['body']
        reject(new ApiError(xhr.status, b?.error ?? `${xhr.status} ${xhr.statusText || 'upload failed'}`, b))
      }
    }
    xhr.send(file)
  })
}
