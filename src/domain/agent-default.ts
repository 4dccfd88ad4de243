import { normalizeLabel, RECOMMENDED_MARK, STATIC_DEFAULT_MARK } from './labels'
import { optionLabel, type OptionInput } from './observation'

/**
 * The option the agent marked ` (Recommended)` itself, when it marked exactly one of a
 * single-select question: the static default of its recommendation (R-REC-1: the request's
 * static default first), so that with too little history the agent's own choice is kept rather
 * than replaced by the first option or the policy's general default. In ASCII or full-width
 * parentheses, as normalizeLabel reads the mark: `PostgreSQL（Recommended）`. Or ` (static
 * default)`, as a plan of this service marks the static default for an expert: its
 * `ask_user_question_input`, passed to AskUserQuestion and planned again by the PreToolUse hook,
 * showed the expert the policy's default (or the first option) instead of the agent's own.
 */
export function agentMarkedDefault(options: readonly OptionInput[], multiSelect: boolean | undefined): string | undefined {
  if (multiSelect === true) return undefined
  const marked = options.map(optionLabel).filter((label) => RECOMMENDED_MARK.test(label) || STATIC_DEFAULT_MARK.test(label))
  return marked.length === 1 ? normalizeLabel(marked[0] as string) : undefined
}
