import { homedir, userInfo } from 'node:os'
import { isAbsolute } from 'node:path'

/**
 * The home folder: $HOME (homedir), but the account's own when that is no absolute path. A HOME set
 * empty (`HOME=` in a unit file or a wrapper) made the hook's spool `.decision-memory/spool.ndjson`
 * in the folder the hook runs in, the agent's project: the choices kept in a repository, where a
 * commit could take them, and drained only by a hook run in that same folder.
 */
export function homeFolder(): string {
  const home = homedir()
  if (isAbsolute(home)) return home
  try {
    return userInfo().homedir
  } catch {
    // No account entry for this uid (a container run with --user 1234): HOME as it is.
    return home
  }
}
