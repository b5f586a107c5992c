import { shallowRef } from 'vue'
import type { ShallowRef } from 'vue'
import type { App } from '@modelcontextprotocol/ext-apps'
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/client'

/** A form the host asked this view to render (app-rendered elicitation, SEP-3118). */
export interface McpViewQuestion {
  /** What the server asks, as the person should read it. */
  message: string
  /** The form's fields, as the server listed them (flat JSON Schema). */
  requestedSchema: ElicitRequestFormParams['requestedSchema']
}

/** The view's side of app-rendered elicitation: the pending question, and its three answers. */
export interface McpViewQuestionState {
  question: Readonly<ShallowRef<McpViewQuestion | undefined>>
  accept: (content: NonNullable<ElicitResult['content']>) => void
  decline: () => void
  cancel: () => void
}

/**
 * Answers the host's `elicitation/create` requests in the view: the request waits until the
 * person accepts, declines or cancels in the view. This is the message the MCP Inspector's
 * app-elicitation renderer sends (ext-apps 2.0.4's `App` has none yet: SEP-3118 is a draft).
 * One question at a time: a newer one cancels the one still open.
 *
 * @example
 * ```ts
 * const { question, accept } = answerQuestionsIn(app)
 * ```
 */
export function answerQuestionsIn(app: App): McpViewQuestionState {
  const question = shallowRef<McpViewQuestion>()
  let settle: ((result: ElicitResult) => void) | undefined
  const answer = (result: ElicitResult) => {
    const done = settle
    settle = undefined
    question.value = undefined
    done?.(result)
  }
  app.setRequestHandler('elicitation/create', (request) => {
    const params = request.params
    if (!('requestedSchema' in params)) throw new Error('This view renders form elicitations only.')
    answer({ action: 'cancel' })
    question.value = { message: params.message, requestedSchema: params.requestedSchema }
    return new Promise<ElicitResult>((resolve) => { settle = resolve })
  })
  return {
    question,
    accept: content => answer({ action: 'accept', content }),
    decline: () => answer({ action: 'decline' }),
    cancel: () => answer({ action: 'cancel' }),
  }
}
