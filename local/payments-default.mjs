// What `npm start` does about payments when nothing is configured. Without Stripe's keys the test-mode sandbox
// stands in, but only for a server on this machine: a public address without Stripe looks like a deployment,
// where a sandbox would hand out real tokens for a test card. An explicit PAYMENTS_SANDBOX always wins.

/** Whether the public address is this machine's (or unset: localhost). */
function isLocal(baseUrl) {
  if (!baseUrl) return true
  try {
    return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(baseUrl).hostname)
  } catch {
    return false
  }
}

/**
 * The PAYMENTS_SANDBOX value `npm start` sets, or undefined to leave the environment as it is.
 * @param {Record<string, string | undefined>} env
 * @returns {'on' | 'off' | undefined}
 */
export function sandboxByDefault(env) {
  if (env.PAYMENTS_SANDBOX || env.STRIPE_SECRET_KEY) return undefined
  return isLocal(env.PUBLIC_BASE_URL) ? 'on' : 'off'
}
