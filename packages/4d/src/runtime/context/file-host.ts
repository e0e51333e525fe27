/**
 * @module What `File` and `Folder` reach (docs/Concepts/paths.md): the project's own folders, by
 * their filesystem names — `/PACKAGE/` (the project's root folder), `/PROJECT/`, `/SOURCES/`,
 * `/RESOURCES/`, `/DATA/`, `/LOGS/` — and nothing else. 4D code holds a path of one of them
 * (`/RESOURCES/img/logo.png`), made here from what it writes: `..` may not climb above the
 * filesystem's root. The host (src/project/project-files.ts) maps it to its disk and refuses what
 * a symbolic link would take outside; 4D code never sees the host's paths nor its API.
 */
import { raise } from '../errors/fourd-error.js'

export const FILESYSTEMS = ['PACKAGE', 'PROJECT', 'SOURCES', 'RESOURCES', 'DATA', 'LOGS'] as const
export type Filesystem = (typeof FILESYSTEMS)[number]

/** A path inside one filesystem: its name and the names below its root. */
export interface FsPath {
  readonly fs: Filesystem
  readonly names: readonly string[]
}

export interface FileStat {
  readonly kind: 'file' | 'folder'
  readonly size: number
  /** Epoch milliseconds. */
  readonly modified: number
  readonly created: number
  /**
   * What the entry really is, the same through every link to it (a device and inode): a walk
   * going down a folder a second time, through a link, is in a cycle. None: it is not known.
   */
  readonly id?: string
}

/**
 * The operations on the disk, each on a path of the filesystems; each throws the 4D error
 * `FileOutside` for a path whose real place (symbolic links followed) is outside them, and
 * `FileError` for what the disk refuses.
 */
export interface FileHost {
  stat(path: FsPath): FileStat | null
  readText(path: FsPath): string
  /** The file's bytes (`getContent()`: a BLOB). */
  readBytes(path: FsPath): Uint8Array
  writeText(path: FsPath, text: string): void
  /** Writes the bytes as they are (`setContent()` of a BLOB). */
  writeBytes(path: FsPath, bytes: Uint8Array): void
  /** The names in a folder. */
  list(path: FsPath): string[]
  makeFolder(path: FsPath): void
  remove(path: FsPath, withContents: boolean): void
  copy(from: FsPath, to: FsPath): void
  move(from: FsPath, to: FsPath): void
  /** The filesystem path of a host path (`fk platform path`), when it is in one. */
  fromPlatform(text: string): FsPath | null
}

/** `/RESOURCES/a/b.txt`, a folder's with a last `/`. */
export const pathText = (p: FsPath, folder = false): string =>
  `/${p.fs}/${p.names.join('/')}${folder && p.names.length > 0 ? '/' : ''}`

/** The names of `relative` (a relative POSIX path) from `names`; `..` may not leave the root. */
export function descend(base: FsPath, relative: string): FsPath {
  const names = [...base.names]
  for (const part of relative.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (names.length === 0) raise('FileOutside', { path: relative })
      names.pop()
    } else names.push(part)
  }
  return { fs: base.fs, names }
}

/** Whether a text is a path of one of the filesystems (`/DATA`, `/DATA/x.txt`): its first name. */
export const isFilesystemPath = (text: string): boolean =>
  FILESYSTEMS.some((fs) => text === `/${fs}` || text.startsWith(`/${fs}/`))

/** A 4D POSIX path (`/DATA/x.txt`): a filesystem's, else the 4D error FileOutside. */
export function parsePosix(text: string): FsPath {
  const match = /^\/([A-Za-z]+)(?:\/(.*))?$/.exec(text)
  const fs = FILESYSTEMS.find((f) => f === match?.[1])
  if (match === null || fs === undefined) return raise('FileOutside', { path: text })
  return descend({ fs, names: [] }, match[2] ?? '')
}
