/**
 * The text-generation adapter (CONTROL-CENTER §5, issue 16): an OpenAI-compatible
 * `POST {base}/chat/completions`, streamed (SSE) with plain fetch, no SDK. Structured output is asked
 * for; a provider that refuses `response_format` (400) is asked once more without it. A timeout, a
 * cancel, an HTTP error or a broken stream all end as a TextGenError saying why, never a hang.
 */
import { ARTICLE_DRAFT_SCHEMA, type ChatMessage } from '../../engine/control-center/content-factory/prompt'

export interface TextGenConfig {
  baseUrl: string
  apiKey: string | null
  model: string
  timeoutMs: number
  maxConcurrency: number
}

export interface Completion {
  text: string
  model: string
  promptTokens: number | null
  completionTokens: number | null
  /** Whether the provider took the structured-output request. */
  structured: boolean
}

export class TextGenError extends Error {}

/** The provider's own words about an error body, kept short. */
async function reason(r: Response): Promise<string> {
  const text = (await r.text().catch(() => '')).slice(0, 500)
  try {
    const m = (JSON.parse(text) as { error?: { message?: string } }).error?.message
    if (m) return m
  } catch {}
  return text || r.statusText
}

export class TextGenerator {
  #running = 0
  readonly #waiting: (() => void)[] = []

  constructor(readonly config: TextGenConfig) {}

  async #slot(): Promise<() => void> {
    if (this.#running >= this.config.maxConcurrency) await new Promise<void>((r) => this.#waiting.push(r))
    this.#running++
    return () => {
      this.#running--
      this.#waiting.shift()?.()
    }
  }

  /** One completion, streamed: `onDelta` gets each piece of text as it arrives. */
  async complete(
    messages: readonly ChatMessage[],
    opts: {
      temperature?: number
      maxTokens?: number
      signal?: AbortSignal
      onDelta?: (text: string) => void
    } = {},
  ): Promise<Completion> {
    const release = await this.#slot()
    try {
      const first = await this.#request(messages, opts, true)
      return first ?? (await this.#request(messages, opts, false))!
    } finally {
      release()
    }
  }

  /** null: the provider refused structured output (try again without). */
  async #request(
    messages: readonly ChatMessage[],
    opts: {
      temperature?: number
      maxTokens?: number
      signal?: AbortSignal
      onDelta?: (text: string) => void
    },
    structured: boolean,
  ): Promise<Completion | null> {
    const timeout = AbortSignal.timeout(this.config.timeoutMs)
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout
    const fail = (e: unknown): never => {
      if (opts.signal?.aborted) throw new TextGenError('cancelled')
      if (timeout.aborted)
        throw new TextGenError(`no answer within ${Math.round(this.config.timeoutMs / 1000)} s`)
      throw new TextGenError(`the provider could not be reached: ${(e as Error).message}`)
    }
    let r: Response
    try {
      r = await fetch(`${this.config.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        signal,
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: this.config.model,
          messages,
          temperature: opts.temperature ?? 0.7,
          ...(opts.maxTokens ? { max_tokens: opts.maxTokens } : {}),
          stream: true,
          stream_options: { include_usage: true },
          ...(structured
            ? {
                response_format: {
                  type: 'json_schema',
                  json_schema: { name: 'article_draft', strict: true, schema: ARTICLE_DRAFT_SCHEMA },
                },
              }
            : {}),
        }),
      })
    } catch (e) {
      return fail(e)
    }
    if (r.status === 400 && structured) {
      await r.body?.cancel()
      return null
    }
    if (!r.ok) throw new TextGenError(`the provider answered ${r.status}: ${await reason(r)}`)
    if (!r.body) throw new TextGenError('the provider sent no body')
    let text = ''
    let model = this.config.model
    let usage: { prompt_tokens?: number; completion_tokens?: number } | undefined
    let buffer = ''
    const decoder = new TextDecoder()
    try {
      for await (const chunk of r.body as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true })
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          const line = buffer.slice(0, nl).trim()
          buffer = buffer.slice(nl + 1)
          if (!line.startsWith('data:')) continue
          const data = line.slice(5).trim()
          if (data === '[DONE]') continue
          let event: { model?: string; choices?: { delta?: { content?: string } }[]; usage?: typeof usage }
          try {
            event = JSON.parse(data)
          } catch {
            throw new TextGenError(`the provider sent a broken stream event: ${data.slice(0, 80)}`)
          }
          if (event.model) model = event.model
          if (event.usage) usage = event.usage
          const piece = event.choices?.[0]?.delta?.content
          if (piece) {
            text += piece
            opts.onDelta?.(piece)
          }
        }
      }
    } catch (e) {
      if (e instanceof TextGenError) throw e
      return fail(e)
    }
    return {
      text,
      model,
      promptTokens: usage?.prompt_tokens ?? null,
      completionTokens: usage?.completion_tokens ?? null,
      structured,
    }
  }
}
