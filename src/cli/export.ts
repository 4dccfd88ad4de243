import { writeSync } from 'node:fs'
import { chmod, readlink, realpath, stat, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { exportLineText } from '../data-rights'
import { codeInWords } from '../file-error'
import { homePath, userFlag, parseFlags } from './options'
import { replaceFile, ReplaceError } from './replace-file'
import { failure, throughServiceOrLocal } from './service-client'
import { terminalSafeJson } from '../terminal'

export const EXPORT_HELP = `decision-memory export --user USER [--out FILE] [--data DIR]

  Everything held about USER as NDJSON, one JSON object a line: a {"type": "export"} header,
  then each observation, session, aggregate and any other entry stored about the user, and last
  {"type": "end", "counts": …}; an export without that line was cut short. On the store in
  --data when given, else through the running service, else $DECISION_MEMORY_DATA or ./data
  (\`decision-memory help\` says which store).

  --user USER  whose data (required)
  --out FILE   write it to FILE, made readable by its owner only (mode 0600; a file there
               already is replaced whole, or left as it was when the export cannot be written
               whole: a full disk), instead of stdout; a FILE that cannot be
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
    writesNothing: true,
    makesNoStore: true,
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
      // another tool, 0644) is replaced by one of mode 0600, as a new one is made. Not a device or
      // a pipe (`--out /dev/stdout`), which is written to as it is, its mode not the export's to
      // change.
      const existing = await stat(values.out).catch(() => undefined)
      // Nor written into a file another account owns (made beforehand in /tmp, mode 666): its
      // owner would read everything held about the user, and its mode is not this account's to change.
      const me = process.getuid?.()
      if (existing?.isFile() === true && me !== undefined && existing.uid !== me) {
        process.stderr.write(`decision-memory export: will not write ${values.out}: it belongs to another account (uid ${existing.uid}), which could read the export; remove it, or give --out a path of your own\n`)
        return 1
      }
      // Nor a file the command was handed open (`--out /dev/stdout > FILE`): the shell writes what
      // follows the command into that one, and a new file in its place would lose it.
      const chain = await linksFrom(values.out)
      const handedOpen = chain.some((path) => OPEN_DESCRIPTOR.test(path))
      const descriptor = ownDescriptor(chain)
      if (existing === undefined || (existing.isFile() && !handedOpen)) await replaceExport(values.out, text)
      else if (existing.isFile() && descriptor !== undefined) {
        // Written through the descriptor itself, where it stands, as stdout is: opened again by
        // its name, the file was cut to nothing (`>> FILE` lost what it held, and what the shell
        // wrote before the command in `{ echo …; export --out /dev/stdout; } > FILE`).
        await chmod(values.out, 0o600).catch(() => undefined)
        writeToDescriptor(descriptor, text)
      } else {
        if (existing.isFile()) await chmod(values.out, 0o600).catch(() => undefined)
        await writeFile(values.out, text)
      }
    } catch (error) {
      // Said in one line, as a path the user can fix (a folder that does not exist, no permission).
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message
      // Through a link into a folder not there, that folder is the one missing, not the link's (`.`).
      const chain = code === 'ENOENT' ? await linksFrom(values.out).catch(() => []) : []
      const folder = chain.length > 1 ? dirname(chain.at(-1) as string) : dirname(values.out)
      process.stderr.write(`decision-memory export: ${cannotWrite(values.out, code, user, true, folder)}\n`)
      return 1
    }
  }
  return 0
}

/**
 * Writes the export to `out` whole, or leaves what is there as it was (replaceFile: mode 0600 from
 * the start). Written in place, a full disk left the last export there, often the backup of the
 * day before, cut short where the new one stopped: exit 1, and no whole export left at all.
 * Through a link to a file, the file it leads to is replaced, the link kept.
 */
async function replaceExport(out: string, text: string): Promise<void> {
  // A link to a file not made yet (`latest.ndjson` → `2026-07-01.ndjson`): that file is made, as
  // writing through the link makes it, and the link kept.
  const target = await realpath(out).catch(async () => (await linksFrom(out)).at(-1) as string)
  try {
    await replaceFile(target, text, 0o600)
  } catch (error) {
    if (!(error instanceof ReplaceError)) throw error
    const { step, code } = error
    // A folder this account may not add a file to, holding a file of its own it may write (made
    // for it beforehand); a file that can be written but not replaced, once the export was written
    // whole beside it: one mounted on its own (a container's bind mount of it, EBUSY), or one open
    // in another program on Windows (EBUSY, EPERM). Written in place, as before, rather than refused.
    // Not after a write beside it failed: the export was not written whole anywhere, and in place
    // it could cut the one there short.
    const inPlace = step === 'beside' ? code === 'EACCES' || code === 'EPERM' : step === 'rename' && (code === 'EBUSY' || code === 'EPERM')
    if (inPlace && (await stat(target).catch(() => undefined))?.isFile() === true) return writeInPlace(target, text)
    throw error
  }
}

/** Writes the export into the file there, made its owner's alone first, as every version before cc93903 did. */
async function writeInPlace(target: string, text: string): Promise<void> {
  await chmod(target, 0o600).catch(() => undefined)
  await writeFile(target, text, { mode: 0o600 })
}

/** A descriptor this process holds open, as `/dev/stdout` leads to it (Linux's `/proc/self/fd/1`, macOS's `/dev/fd/1`). */
const OPEN_DESCRIPTOR = /^\/(?:proc\/(?:self|\d+)\/fd|dev\/fd)\//

/** The number of the descriptor of this process's that the paths lead through, if they do. */
function ownDescriptor(chain: readonly string[]): number | undefined {
  for (const path of chain) {
    const found = /^\/(?:proc\/(self|\d+)\/fd|dev\/fd)\/(\d+)$/.exec(path)
    if (found !== null && (found[1] === undefined || found[1] === 'self' || Number(found[1]) === process.pid)) return Number(found[2])
  }
  return undefined
}

/** Writes the whole text at the descriptor's place, as the process's own stdout is written. */
function writeToDescriptor(fd: number, text: string): void {
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at)
}

/**
 * The paths `path` leads through, link by link, the last a file or no file yet: realpath's answer
 * where that is there, and where it is not, the file a write through the links would make.
 */
async function linksFrom(path: string): Promise<string[]> {
  const chain = [resolve(path)]
  for (;;) {
    const at = chain.at(-1) as string
    const link = await readlink(at).catch(() => undefined)
    if (link === undefined) return chain
    // As the system counts links before it gives up (Linux: 40).
    if (chain.length > 40) throw Object.assign(new Error(`too many links: ${path}`), { code: 'ELOOP' })
    // From the folder the link is really in: `..` in a link reached through a linked folder is
    // read by the system from where that folder leads, not from the path given.
    chain.push(resolve(await realpath(dirname(at)).catch(() => dirname(at)), link))
  }
}

/**
 * Why `--out FILE` could not be written, in words the user can act on, the error's code kept:
 * `EISDIR` alone named no file to give instead.
 */
export function cannotWrite(out: string, code: string, user: string, folderExists = true, folder = dirname(out)): string {
  // A user id may hold any character but controls: `a/b` names no file in the folder.
  const file = `${user.replace(/[/\\:*?"<>|]/g, '_')}.ndjson`
  const why: Record<string, string> = {
    EISDIR: folderExists
      ? `a folder: give --out a file in it, such as ${join(out, file)}`
      : 'a folder\'s path, and there is no such folder: give --out the path of a file, in a folder that exists',
    ENOENT: `there is no folder ${folder}`,
    EACCES: 'this account may not write there',
    EPERM: 'this account may not write there',
  }
  return `cannot write ${out}: ${codeInWords(code, why)}`
}
