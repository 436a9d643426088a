/** The image detail's alt text form (image.schema.json): alt text, decorative, credit. */
import type { UiDescription } from '../types'

export const IMAGE_ALT_UI: UiDescription = {
  idPrefix: 'img',
  defaultTab: 'alt',
  // The file's other properties are the server's (set on upload and replace), not this form's.
  omit: ['$schema', 'id', 'src', 'width', 'height', 'bytes', 'sha256', 'originalName'],
  fields: [
    {
      pointer: '/alt',
      label: 'Alt text (required)',
      widget: 'longText',
      helpOnly: true,
      help: 'What the image shows, for someone who cannot see it, e.g. “A couple reading a Medicare card at a kitchen table”. Read by screen readers; not a caption.',
    },
    {
      pointer: '/decorative',
      label: 'Decorative: it adds nothing a reader would miss (screen readers skip it)',
      helpOnly: true,
    },
    { pointer: '/credit', label: 'Credit (optional)', widget: 'text' },
  ],
}
