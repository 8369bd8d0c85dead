import { execFileSync } from 'node:child_process'

/** The arguments a POSIX shell hands to `curl` for this command line: a stand-in `curl` prints them. */
export function curlArguments(command: string): string[] {
  const output = execFileSync('sh', ['-c', `curl() { printf '%s\\0' "$@"; }\n${command}`], { encoding: 'utf8' })
  return output.split('\0').slice(0, -1)
}
