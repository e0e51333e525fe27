/**
 * @module A service's URL as it may be printed or logged. Apart from the clients that use it, so
 * that the CLI can say where it connects without loading a driver it may not need.
 */

/** `url` with its password replaced: `redis://user:***@host:6379`. */
export const withoutPassword = (url: string): string =>
  url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@')
