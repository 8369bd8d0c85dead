/** The commit whose build plays the previous release in the rolling-deploy test. */
export const PREVIOUS_RELEASE: string
/** Builds `commit` (default PREVIOUS_RELEASE) into the release cache unless built there; answers its server entry. */
export function previousReleaseBuild(commit?: string): string
