import type { ServerEnv } from './env'

/**
 * The runtime this build serves on. The edge build swaps this file for `runtime.edge.ts`
 * (build/vite-edge-plugin.ts), as it swaps every module that needs Node for its edge twin.
 */
export const runtime: 'node' | 'edge' = 'node'

/** Settings this runtime cannot start without, beyond what env.ts checks; the Node build needs none. */
export function runtimeProblems(env: ServerEnv): string[] {
  void env
  return []
}
