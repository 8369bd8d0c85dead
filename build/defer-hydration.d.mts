export function deferHydration(html: string, file?: string): { html: string; data: { path: string; body: string } }
