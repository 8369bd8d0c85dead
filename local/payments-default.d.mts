export function sandboxByDefault(env: Record<string, string | undefined>): 'on' | 'off' | undefined
