import { claudeCodeFixture } from './fixtures'

/** The questions of previewedPostToolUse, each with its four labels and the one chosen. */
export const PREVIEWED_QUESTIONS = [0, 1, 2, 3].map((n) => ({
  question: `Which layout for screen ${n + 1} of the settings page?`,
  options: ['Sidebar', 'Tabs', 'Wizard', 'Single page'],
  chosen: ['Sidebar', 'Tabs', 'Wizard', 'Single page'][n] as string,
}))

/** An option's preview: an HTML mockup of about `bytes` bytes, as Claude Code renders one when the option is focused. */
function mockup(label: string, bytes: number): string {
  const row = `<div class="row">${label}: <input value="réglage"> <button>Save</button></div>\n`
  return `<html><body>\n${row.repeat(Math.ceil(bytes / Buffer.byteLength(row)))}</body></html>`
}

/**
 * The post-tool-use-multi fixture made the call an audit found lost: 4 questions of 4 options, each
 * option with a preview of `previewBytes` (20 KB: over 256 KB in all, carried in tool_input and in
 * tool_response), the chosen one's preview again in `annotations` with the user's notes.
 */
export function previewedPostToolUse(toolUseId = 'toolu_01QxAmPLe0003PreviewsLarge', previewBytes = 20 * 1024): any {
  const payload = claudeCodeFixture('post-tool-use-multi')
  const questions = PREVIEWED_QUESTIONS.map(({ question, options }, n) => ({
    question,
    header: `Screen ${n + 1}`,
    options: options.map((label) => ({ label, description: `The settings as a ${label.toLowerCase()}`, preview: mockup(label, previewBytes) })),
    multiSelect: false,
  }))
  const answers = Object.fromEntries(PREVIEWED_QUESTIONS.map(({ question, chosen }) => [question, chosen]))
  const annotations = Object.fromEntries(PREVIEWED_QUESTIONS.map(({ question, chosen }) => [question, { preview: mockup(chosen, previewBytes), notes: 'keep the Save button where it is' }]))
  payload.tool_use_id = toolUseId
  payload.tool_input = { questions, answers, annotations }
  payload.tool_response = { questions, answers, annotations }
  return payload
}
