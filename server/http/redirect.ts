/**
 * Redirect targets built from the request never leave the site: the result is always a path of this
 * origin. Browsers read `//host` and `/\host` (also with tabs or newlines inside, which they strip)
 * as another host; all of them become `/host`.
 */
export function sameSitePath(path: string): string {
  return `/${path.replace(/[\t\n\r]/g, '').replace(/^[/\\]+/, '')}`
}
