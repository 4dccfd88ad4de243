/**
 * Why an answer asked for as of `asOf` cannot be printed as of it, or undefined when it says that
 * moment. A service of an older version, still running after an upgrade of the command, may ignore
 * `as_of` on `GET /v1/decisions/{key}/why` (one from before it took as_of there does; one from
 * after, up to the one that says its as_of, answers as of then) and send the chain of now without saying so: printed
 * under `KEY as of ISO`, it would be a wrong audit said as right. Its answer has no `as_of`; one
 * that names another moment is refused too, as it describes another moment than the one asked.
 * `done` and `flag` say it for the doorway that asks (the MCP `why` tool answers, with `as_of`).
 */
export function notAsOf(body: unknown, asOf: string, what: string, done = 'printed', flag = '--as-of'): string | undefined {
  const said = (body as { as_of?: unknown } | null)?.as_of
  if (typeof said !== 'string') {
    return (
      `the service does not answer ${what} as of a moment (its answer has no as_of): a service of an older version, ` +
      `still running after the upgrade, may answer as of now whatever ${flag} says, and none says which moment it answered for; restart it, then ask again. Nothing ${done} as of ${asOf}`
    )
  }
  if (Date.parse(said) !== Date.parse(asOf)) return `the service answered ${what} as of ${said}, not as of ${asOf}; nothing ${done}`
  return undefined
}
