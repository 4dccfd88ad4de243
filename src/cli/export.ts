import { chmod, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { exportLineText } from '../data-rights'
import { homePath, userFlag, parseFlags } from './options'
import { failure, throughServiceOrLocal } from './service-client'
import { terminalSafeJson } from './terminal'

export const EXPORT_HELP = `decision-memory export --user USER [--out FILE] [--data DIR]

  Everything held about USER as NDJSON, one JSON object a line: a {"type": "export"} header,
  then each observation, session, aggregate and any other entry stored about the user, and last
  {"type": "end", "counts": …}; an export without that line was cut short. On the store in
  --data when given, else through the running service, else $DECISION_MEMORY_DATA or ./data
  (\`decision-memory help\` says which store).

  --user USER  whose data (required)
  --out FILE   write it to FILE, made readable by its owner only (mode 0600, a file there
               already made so before it is written), instead of stdout; a FILE that cannot be
               written is said on stderr with why (a folder, before the export is read, with
               a file to give; no such folder; no permission), exit 1; \`--out -\` is stdout; a leading ~ is the
               home folder
  --data DIR   the store to export from (default: the running service's, else
               $DECISION_MEMORY_DATA or ./data)
`

/** `decision-memory export` (R-SVC-5). */
export async function exportCommand(argv: string[]): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: { user: { type: 'string' }, out: { type: 'string' }, data: { type: 'string' } },
    strict: true,
  })
  const user = userFlag(values.user, 'export')
  // A leading `~` is the home folder, as for --data and --spool: no shell expands it after `--out=`.
  if (values.out !== undefined) values.out = homePath(values.out)
  // A folder, or a path ending in one's `/`, is seen before the export is read (which may be long):
  // said with the file to give.
  if (values.out !== undefined && values.out !== '-') {
    const folder = (await stat(values.out).catch(() => undefined))?.isDirectory() === true
    if (folder || /[/\\]$/.test(values.out)) {
      process.stderr.write(`decision-memory export: ${cannotWrite(values.out, 'EISDIR', user, folder)}\n`)
      return 1
    }
  }
  const answer = await throughServiceOrLocal({
    method: 'GET',
    path: `/v1/users/${encodeURIComponent(user)}/export`,
    dataDir: values.data,
    timeoutMs: 600_000,
    // NDJSON, which stays text: a JSON document is another program's answer.
    expect: (body) => typeof body === 'string',
    local: async (memory) => {
      let text = ''
      for await (const line of memory.exportUser(user)) text += exportLineText(line) + '\n'
      return text
    },
  })
  if (answer.status >= 400) return failure('export', answer)
  // NDJSON is for programs, but it is often looked at where it lands: C1 controls escaped (same values).
  const text = terminalSafeJson(answer.body as string)
  // `-` is stdout, as for most commands that take an output file: not a file named `-` made in the
  // current directory while the script that asked for stdout gets nothing and exit 0.
  if (values.out === undefined || values.out === '-') process.stdout.write(text)
  else {
    try {
      // Everything held about the user is for the user alone: a file there already (made by
      // another tool, 0644) is made 0600 before the data goes in, as a new one is made. Not a
      // device or a pipe (`--out /dev/stdout`), whose mode is not the export's to change; nor a
      // file another account owns that this one may write, whose mode only its owner may change.
      const existing = await stat(values.out).catch(() => undefined)
      // Nor written into a file another account owns (made beforehand in /tmp, mode 666): its
      // owner would read everything held about the user, and its mode is not this account's to change.
      const me = process.getuid?.()
      if (existing?.isFile() === true && me !== undefined && existing.uid !== me) {
        process.stderr.write(`decision-memory export: will not write ${values.out}: it belongs to another account (uid ${existing.uid}), which could read the export; remove it, or give --out a path of your own\n`)
        return 1
      }
      if (existing?.isFile() === true) await chmod(values.out, 0o600).catch(() => undefined)
      await writeFile(values.out, text, { mode: 0o600 })
    } catch (error) {
      // Said in one line, as a path the user can fix (a folder that does not exist, no permission).
      process.stderr.write(`decision-memory export: ${cannotWrite(values.out, (error as NodeJS.ErrnoException).code ?? (error as Error).message, user)}\n`)
      return 1
    }
  }
  return 0
}

/**
 * Why `--out FILE` could not be written, in words the user can act on, the error's code kept:
 * `EISDIR` alone named no file to give instead.
 */
export function cannotWrite(out: string, code: string, user: string, folderExists = true): string {
  // A user id may hold any character but controls: `a/b` names no file in the folder.
  const file = `${user.replace(/[/\\:*?"<>|]/g, '_')}.ndjson`
  const why: Record<string, string> = {
    EISDIR: folderExists
      ? `a folder: give --out a file in it, such as ${join(out, file)}`
      : 'a folder\'s path, and there is no such folder: give --out the path of a file, in a folder that exists',
    ENOENT: `there is no folder ${dirname(out)}`,
    ENOTDIR: `a part of the path is a file, not a folder`,
    EACCES: 'this account may not write there',
    EPERM: 'this account may not write there',
    EROFS: 'a read-only file system',
    ENOSPC: 'the disk is full',
  }
  return `cannot write ${out}: ${why[code] === undefined ? code : `${why[code]} (${code})`}`
}
