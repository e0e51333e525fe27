/**
 * @module The disk of `File` and `Folder` for a project (runtime/context/file-host.ts): its
 * filesystems are folders of the project's root — `/PACKAGE/` the root, `/PROJECT/` its `Project`
 * folder, `/SOURCES/` `Project/Sources`, `/RESOURCES/` `Resources`, `/DATA/` `Data`, `/LOGS/`
 * `Data/Logs` — and every operation first finds where a path really is, symbolic links followed
 * (the real path of its nearest existing folder): outside the root's real path, the 4D error
 * FileOutside, before anything is read or written. What the disk refuses is the 4D error
 * FileError naming the path; no Node error reaches 4D code.
 */
import {
  cpSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { FourDError, raise } from '../runtime/errors/fourd-error.js'
import { withinLimit } from '../runtime/values/limits.js'
import {
  pathText,
  type FileHost,
  type Filesystem,
  type FsPath,
} from '../runtime/context/file-host.js'

const FOLDERS: Readonly<Record<Filesystem, readonly string[]>> = {
  PACKAGE: [],
  PROJECT: ['Project'],
  SOURCES: ['Project', 'Sources'],
  RESOURCES: ['Resources'],
  DATA: ['Data'],
  LOGS: ['Data', 'Logs'],
}

/** The file host of the project whose root folder (the one holding `Project`) is `root`. */
export function projectFiles(root: string): FileHost {
  const top = resolve(root)
  const realTop = realpathSync(top)

  // Where `p` is on the disk, once its real place is known to be inside the root.
  const place = (p: FsPath): string => {
    const path = join(top, ...FOLDERS[p.fs], ...p.names)
    let existing = path
    // A link that leads nowhere exists: its real path is then refused, not written through.
    while (
      lstatSync(existing, { throwIfNoEntry: false }) === undefined &&
      dirname(existing) !== existing
    )
      existing = dirname(existing)
    const real = join(realpathSync(existing), relative(existing, path))
    if (real !== realTop && !real.startsWith(realTop + sep))
      raise('FileOutside', { path: pathText(p) })
    return real
  }

  // `fn` on the disk, what it refuses as FileError.
  const disk = <T>(action: string, p: FsPath, fn: (path: string) => T): T => {
    try {
      return fn(place(p))
    } catch (e) {
      if (FourDError.is(e)) throw e
      const code = (e as { code?: unknown }).code
      return raise('FileError', {
        action,
        path: pathText(p),
        detail: typeof code === 'string' ? code : 'refused',
      })
    }
  }

  const write = (p: FsPath, content: string | Uint8Array): void =>
    disk('write', p, (path) => {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, content)
    })

  return {
    stat: (p) =>
      disk('read', p, (path) => {
        const s = statSync(path, { throwIfNoEntry: false })
        if (s === undefined) return null
        return {
          kind: s.isDirectory() ? 'folder' : 'file',
          size: s.size,
          modified: s.mtimeMs,
          created: s.birthtimeMs,
          id: `${s.dev}:${s.ino}`,
        }
      }),
    readText: (p) => disk('read', p, (path) => readFileSync(path, 'utf8')),
    readBytes: (p) => disk('read', p, (path) => new Uint8Array(readFileSync(path))),
    writeText: (p, text) => write(p, text),
    writeBytes: (p, bytes) => write(p, bytes),
    list: (p) => disk('list', p, (path) => readdirSync(path)),
    makeFolder: (p) => disk('create', p, (path) => void mkdirSync(path, { recursive: true })),
    remove: (p, withContents) =>
      disk('delete', p, (path) => {
        if (statSync(path).isDirectory() && !withContents && readdirSync(path).length > 0)
          raise('FileError', { action: 'delete', path: pathText(p), detail: 'it is not empty' })
        rmSync(path, { recursive: withContents })
      }),
    copy: (from, to) =>
      disk('copy', from, (source) =>
        disk('copy', to, (target) => {
          // A copy holds files and folders: a link is not copied (one to its own folder would
          // make the copy a cycle, one out of the project a way out), and the entries met are
          // bounded as a listing's are.
          let met = 0
          cpSync(source, target, {
            recursive: true,
            filter: (entry) => {
              withinLimit('fileEntries', 'A copy', ++met)
              return entry === source || !lstatSync(entry).isSymbolicLink()
            },
          })
        }),
      ),
    move: (from, to) =>
      disk('move', from, (source) =>
        disk('move', to, (target) => {
          mkdirSync(dirname(target), { recursive: true })
          renameSync(source, target)
        }),
      ),
    fromPlatform(text) {
      if (!isAbsolute(text)) return null
      const rel = relative(top, resolve(text))
      if (rel.startsWith('..') || isAbsolute(rel)) return null
      return { fs: 'PACKAGE', names: rel === '' ? [] : rel.split(sep) }
    },
  }
}
