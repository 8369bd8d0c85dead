/** The commit whose build plays the previous release in the rolling-deploy test. */
export const PREVIOUS_RELEASE: string
/** Builds `commit` (default PREVIOUS_RELEASE) into .cache/previous-release/ unless built; answers its server entry. */
export function previousReleaseBuild(commit?: string): string
