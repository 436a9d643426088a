/**
 * The content factory's prompt (CONTROL-CENTER §5, issue 16): the author's persona, the house rules
 * and the brief, as chat messages. Pure, and shown verbatim on the run page, so staff see exactly
 * what the model was asked.
 */
import type { Author } from '../../../schemas/generated/author'

export interface Brief {
  topic: string
  carrier?: string
  angle?: string
  keywords?: string[]
  /** Target length in words. */
  words?: number
  outline?: string[]
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/** What every generated article must respect, whoever the author. */
export const HOUSE_RULES = [
  'Never guarantee a benefit, an approval or a saving, and never invent plan amounts, prices or dates.',
  'Say that benefits, costs and availability vary by plan and by county.',
  'Name carriers exactly as they name themselves, and only say what their public plan documents say.',
  'Do not call a private plan benefit a "government program" or "free money".',
  'Write plain Markdown only: no HTML.',
] as const

const READING = { 'grade-6': 'grade 6', 'grade-8': 'grade 8', 'grade-10': 'grade 10', 'grade-12': 'grade 12' }

/** The JSON the model must return: a reduced article draft (strict structured output has no maxLength). */
export const ARTICLE_DRAFT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'description', 'carrier', 'slug', 'body'],
  properties: {
    title: { type: 'string' },
    description: { type: 'string' },
    carrier: { type: 'string' },
    slug: { type: 'string' },
    body: { type: 'array', items: { type: 'string' } },
  },
} as const

export interface ArticleDraft {
  title: string
  description: string
  carrier: string
  slug: string
  body: string[]
}

export function buildMessages(
  author: Author,
  brief: Brief,
  existingTitles: readonly string[],
): ChatMessage[] {
  const p = author.persona
  const system = [
    `You write articles for a Medicare information site as ${author.name}. ${author.bio}`,
    ...(author.credentials?.length ? [`Credentials: ${author.credentials.join('; ')}.`] : []),
    ...(p
      ? [
          `Voice: ${p.voice}.`,
          `Audience: ${p.audience}.`,
          ...(p.expertise?.length ? [`Expertise: ${p.expertise.join(', ')}.`] : []),
          `Reading level: ${READING[p.readingLevel ?? 'grade-8']}.`,
          ...(p.doNot?.length ? [`Never: ${p.doNot.join('; ')}.`] : []),
        ]
      : []),
    'House rules:',
    ...HOUSE_RULES.map((r) => `- ${r}`),
    'Answer with one JSON object: {"title", "description" (one or two sentences), "carrier", "slug" (lower-case words joined by dashes), "body" (the article in Markdown, one array item per line)}.',
  ].join('\n')
  const user = [
    `Topic: ${brief.topic}`,
    ...(brief.carrier ? [`Carrier: ${brief.carrier}`] : []),
    ...(brief.angle ? [`Angle: ${brief.angle}`] : []),
    ...(brief.keywords?.length ? [`Keywords: ${brief.keywords.join(', ')}`] : []),
    `Length: about ${brief.words ?? 800} words`,
    ...(brief.outline?.length ? ['Outline:', ...brief.outline.map((o) => `- ${o}`)] : []),
    ...(existingTitles.length
      ? ['Articles that already exist (do not repeat them):', ...existingTitles.map((t) => `- ${t}`)]
      : []),
  ].join('\n')
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ]
}

/** The repair turn: the model's answer and what was wrong with it, to try once more. */
export function repairMessages(
  messages: readonly ChatMessage[],
  answer: string,
  problems: readonly string[],
): ChatMessage[] {
  return [
    ...messages,
    { role: 'assistant', content: answer },
    {
      role: 'user',
      content: `That answer cannot be used:\n${problems.map((p) => `- ${p}`).join('\n')}\nAnswer again with the corrected JSON object only.`,
    },
  ]
}

/** The model's JSON: the whole answer, or the first fenced ```json block in it. */
export function parseDraft(
  answer: string,
): { ok: true; draft: ArticleDraft } | { ok: false; problems: string[] } {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n```/.exec(answer)?.[1]
  let value: unknown
  try {
    value = JSON.parse(fenced ?? answer)
  } catch (e) {
    return { ok: false, problems: [`the answer is not JSON (${(e as Error).message})`] }
  }
  const problems: string[] = []
  const v = value as Record<string, unknown>
  if (!v || typeof v !== 'object' || Array.isArray(v))
    return { ok: false, problems: ['the answer is not a JSON object'] }
  for (const key of ['title', 'description', 'carrier', 'slug'] as const)
    if (typeof v[key] !== 'string' || !(v[key] as string).trim())
      problems.push(`"${key}" must be a non-empty string`)
  if (!Array.isArray(v.body) || !v.body.every((l) => typeof l === 'string') || !v.body.length)
    problems.push('"body" must be a non-empty array of lines')
  if (problems.length) return { ok: false, problems }
  return { ok: true, draft: v as unknown as ArticleDraft }
}
