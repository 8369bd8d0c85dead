/** Provided by build/nitro-server-entry.ts (a Nitro virtual module): loads the app's server entry. */
declare module '#app/server-entry' {
  export function loadServerEntry(): Promise<unknown>
}
