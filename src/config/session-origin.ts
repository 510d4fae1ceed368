/**
 * A stored client session belongs to one server and app: it is tagged with this string, and
 * only a command configured for the same server and app sees it.
 */
export function sessionOrigin(baseUrl: string, appName: string, ownerid: string): string {
  return `${baseUrl}|${appName}|${ownerid}`;
}
