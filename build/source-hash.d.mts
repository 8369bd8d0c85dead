export const recordedHashFile: string
export function sourceHash(root?: string): string
