/**
 * @module The signals that stop `entistore serve`, in one place for the single process, the
 * primary of `--workers` and its workers, which differ only in what a second signal does.
 */

/**
 * Resolves on the first SIGINT or SIGTERM. Then, by default, neither is listened to any more, so
 * that a second one ends the process at once (Ctrl-C twice: do not wait for the graceful stop);
 * with `ignoreLater`, the later ones are ignored (a worker, which its primary kills if need be).
 */
export function stopSignal(options: { readonly ignoreLater?: boolean } = {}): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      resolve()
      if (options.ignoreLater) return
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}
